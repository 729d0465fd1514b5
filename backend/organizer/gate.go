package organizer

// Confidence lines of the gate.
const (
	// LowConfidence: below it a decision is high risk, whatever it touches.
	LowConfidence = 0.7
	// AutoConfidence: the least confidence at which a scheduled run applies a low-risk decision.
	AutoConfidence = 0.8
	// StrictConfidence: conservative mode's line for low risk, aggressive mode's for medium.
	StrictConfidence = 0.9
)

// RiskInput is what the gate knows about a decision when it recomputes its risk.
type RiskInput struct {
	Action     Action
	Confidence float64
	// CrossScope is set when the entries of the decision live in more than one scope instance.
	CrossScope bool
	// TouchesReviewed is set when any entry the decision changes or removes is reviewed.
	TouchesReviewed bool
	// RemovesReviewed is set when a reviewed entry would leave the store: a delete target, or
	// a merge_into source (its text lives on in the keeper, but the entry a person vouched
	// for goes away).
	RemovesReviewed bool
	// Unreviews is set when applying the decision would take a person's reviewed mark off: a
	// merge that adds unreviewed text to a reviewed keeper.
	Unreviews bool
	// TouchesRestored is set when any entry of the decision is one a person restored after
	// the organizer removed it (memory.Store.RestoredByPerson): their undo stands.
	TouchesRestored bool
}

// ComputeRisk recomputes a decision's risk locally: cross-scope → high, confidence below 0.7
// → high, touching a reviewed entry → at least medium, removing a reviewed entry, marking it
// for review again or merging unreviewed text into it (which takes its reviewed mark off) → high,
// touching an entry a person restored after the organizer removed it → high.
func ComputeRisk(in RiskInput) Risk {
	risk := RiskLow
	if in.CrossScope || in.Confidence < LowConfidence {
		risk = RiskHigh
	}
	if in.TouchesReviewed {
		risk = maxRisk(risk, RiskMedium)
	}
	if in.RemovesReviewed && (in.Action == ActionDelete || in.Action == ActionMergeInto) {
		risk = RiskHigh
	}
	// mark_review takes the reviewed mark off: on an entry a person reviewed that withdraws
	// their word, which only a person may do (an aggressive scheduled run applied a model's
	// confident mark_review on its own, medium risk at ≥ 0.9).
	if in.TouchesReviewed && in.Action == ActionMarkReview {
		risk = RiskHigh
	}
	// So does a merge adding unreviewed text to a reviewed keeper: the keeper goes back to
	// review (an aggressive scheduled run applied a model's confident one on its own).
	if in.Unreviews {
		risk = RiskHigh
	}
	// A memory a person brought back after the organizer removed it is theirs to remove or
	// merge again: a scheduled run merged a restored duplicate away at once, every run.
	if in.TouchesRestored {
		risk = RiskHigh
	}
	return risk
}

// Gate decides, from trigger × mode × risk × confidence, whether a run applies a decision
// itself (OutcomeAuto), leaves it for a person (OutcomeQueue, with the bucket saying why), or
// only reports it (OutcomeDrop: rewrite hints are advice, never applied).
//
//	manual                      → queue (manual_review)
//	scheduled, high risk        → queue (high_risk)
//	scheduled, conservative     → auto when low risk, confidence ≥ 0.9 and not a delete
//	scheduled, standard         → auto when low risk and confidence ≥ 0.8
//	scheduled, aggressive       → auto when low risk and ≥ 0.8, or medium risk and ≥ 0.9
func Gate(trigger Trigger, mode Mode, action Action, risk Risk, confidence float64) (Outcome, string) {
	if action == ActionRewriteHint {
		return OutcomeDrop, BucketReportOnly
	}
	if trigger != TriggerScheduled {
		return OutcomeQueue, BucketManualReview
	}
	if risk == RiskHigh {
		return OutcomeQueue, BucketHighRisk
	}
	switch mode {
	case ModeConservative:
		if action == ActionDelete {
			return OutcomeQueue, BucketConservativeMode
		}
		if risk == RiskMedium {
			return OutcomeQueue, BucketMediumRisk
		}
		if confidence < StrictConfidence {
			return OutcomeQueue, BucketBelowConfidence
		}
	case ModeAggressive:
		line := AutoConfidence
		if risk == RiskMedium {
			line = StrictConfidence
		}
		if confidence < line {
			return OutcomeQueue, BucketBelowConfidence
		}
	default: // standard, and any unknown mode is treated as standard
		if risk == RiskMedium {
			return OutcomeQueue, BucketMediumRisk
		}
		if confidence < AutoConfidence {
			return OutcomeQueue, BucketBelowConfidence
		}
	}
	return OutcomeAuto, ""
}
