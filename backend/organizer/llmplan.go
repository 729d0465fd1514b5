package organizer

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"time"

	"engram/backend/llm"
	"engram/backend/prompts"
)

// Bounds of a SubmitMemoryOrganizePlan answer.
const (
	maxPlanDecisions = 24
	maxEvidenceItems = 12
	evidenceRunes    = 400
	reasonRunes      = 600
	hintRunes        = 1000
)

// LLMPlanner plans one cluster through one SubmitMemoryOrganizePlan call, with the cluster's
// memories, the global inventory and the scope's compression target (limit − 100) in the
// prompt. Its answer is hostile input: decoded strictly, each decision checked on its own (a
// bad one is reported dropped with its bucket, the rest go on), and every decision then goes
// through the local gate, which recomputes the risk. An error fails only this cluster; the
// pipeline plans it offline instead.
type LLMPlanner struct {
	Client llm.Client
	// Timeout bounds one call; zero means DefaultPlanTimeout.
	Timeout time.Duration
	// MaxTokens bounds the answer; zero means 4,096.
	MaxTokens int
}

// Name is "llm".
func (p *LLMPlanner) Name() string { return "llm" }

func planTool() llm.Tool {
	str := func(desc string, n int) map[string]any {
		return map[string]any{"type": "string", "maxLength": n, "description": desc}
	}
	return llm.Tool{Name: prompts.OrganizerPlanTool, Description: prompts.OrganizerPlanToolDesc, Parameters: schema(map[string]any{
		"type": "object", "additionalProperties": false, "required": []string{"decisions"},
		"properties": map[string]any{
			"decisions": map[string]any{"type": "array", "maxItems": maxPlanDecisions, "description": prompts.OrganizerPlanDecisionsDesc,
				"items": map[string]any{"type": "object", "additionalProperties": false,
					"required": []string{"action", "ids", "confidence", "reason"},
					"properties": map[string]any{
						"action": map[string]any{"type": "string", "description": prompts.OrganizerPlanActionDesc,
							"enum": []string{string(ActionKeep), string(ActionMergeInto), string(ActionDelete), string(ActionMarkReview), string(ActionRewriteHint)}},
						"ids": map[string]any{"type": "array", "minItems": 1, "maxItems": MaxClusterSize,
							"items": map[string]any{"type": "string"}, "description": prompts.OrganizerPlanIDsDesc},
						"into":       map[string]any{"type": "string", "description": prompts.OrganizerPlanIntoDesc},
						"confidence": map[string]any{"type": "number", "minimum": 0, "maximum": 1, "description": prompts.OrganizerPlanConfDesc},
						"reason":     str(prompts.OrganizerPlanReasonDesc, reasonRunes),
						"preserved_evidence": map[string]any{"type": "array", "maxItems": maxEvidenceItems,
							"items": map[string]any{"type": "string", "maxLength": evidenceRunes}, "description": prompts.OrganizerPlanEvidenceDesc},
						"hint": str(prompts.OrganizerPlanHintDesc, hintRunes),
					}}},
			"summary":          str(prompts.OrganizerPlanSummaryDesc, reasonRunes),
			"expected_removed": map[string]any{"type": "integer", "minimum": 0, "description": prompts.OrganizerPlanRemovedDesc},
		}})}
}

// planArgs is the shape of SubmitMemoryOrganizePlan's arguments; the decisions are decoded
// one by one so that one bad decision does not sink the others.
type planArgs struct {
	Decisions       []json.RawMessage `json:"decisions"`
	Summary         string            `json:"summary"`
	ExpectedRemoved *int              `json:"expected_removed"`
}

// planItem is one decision as the model sends it.
type planItem struct {
	Action            string   `json:"action"`
	IDs               []string `json:"ids"`
	Into              string   `json:"into"`
	Confidence        *float64 `json:"confidence"`
	Reason            string   `json:"reason"`
	PreservedEvidence []string `json:"preserved_evidence"`
	Hint              string   `json:"hint"`
}

// Plan asks the model for the cluster's decisions.
func (p *LLMPlanner) Plan(ctx context.Context, in PlanInput) (PlanOutput, error) {
	tc := toolCall{purpose: llm.PurposeOrganizerPlan, system: prompts.OrganizerPlanSystem, prompt: planPrompt(in),
		tool: planTool(), retry: prompts.OrganizerPlanRetry, timeout: p.Timeout, tokens: p.MaxTokens}
	if tc.timeout <= 0 {
		tc.timeout = DefaultPlanTimeout
	}
	if tc.tokens <= 0 {
		tc.tokens = 4096
	}
	raw, use, err := tc.call(ctx, p.Client)
	out := PlanOutput{Usage: use}
	if err != nil {
		return out, err
	}
	var args planArgs
	if err := decodeStrict(raw, &args); err != nil {
		return out, badArgs(prompts.OrganizerPlanTool, err)
	}
	if args.Decisions == nil {
		return out, badArgs(prompts.OrganizerPlanTool, errors.New("decisions is missing"))
	}
	// More decisions than one plan holds: the first maxPlanDecisions, in the model's order,
	// are taken and the rest deferred (reported, nothing done) — the whole plan was refused
	// and the cluster planned offline. Taking a prefix does nothing the whole plan would not:
	// the gate lets an earlier decision claim a memory before a later one may; and what is
	// taken waits for a person (Oversized), never applied by a scheduled run on its own.
	taken, deferred := args.Decisions, []json.RawMessage(nil)
	if len(taken) > maxPlanDecisions {
		taken, deferred = taken[:maxPlanDecisions], taken[maxPlanDecisions:]
	}
	later, held := deferProposals(deferred, len(args.Decisions), in.Cluster)
	first := proposalsOf(taken, in.Cluster, held)
	if len(deferred) > 0 {
		for i := range first {
			first[i].Oversized = true
		}
	}
	out.Proposals = append(first, later...)
	return out, nil
}

// deferProposals reports the decisions beyond one plan's limit as deferred: each that would
// change something becomes a dropped proposal naming the cluster's memories it names (never
// applied; a later run plans them again), at most maxPlanDecisions of them listed. held is
// the memories they name, which are then not counted as kept. sent is how many decisions the
// model sent.
func deferProposals(deferred []json.RawMessage, sent int, c Cluster) (out []Proposal, held map[string]bool) {
	held = map[string]bool{}
	args := map[string]any{"Count": sent, "Max": maxPlanDecisions}
	for _, raw := range deferred {
		var it planItem
		_ = decodeStrict(raw, &it) // an unreadable one still shows as deferred, naming nothing
		act := Action(it.Action)
		if act == ActionKeep {
			continue // a keep changes nothing: its memories stay kept
		}
		if !act.Valid() {
			act = ""
		}
		var ids []string
		// A merge's keeper is named too (last): a deferred merge leaves both as they are.
		for _, id := range dedupe(append(it.IDs, it.Into)) {
			if inCluster(c, id) && len(ids) < MaxClusterSize {
				ids = append(ids, id)
				held[id] = true
			}
		}
		if len(out) < maxPlanDecisions {
			conf := 0.0 // the model's, shown as it sent it (0 when it sent none)
			if it.Confidence != nil {
				conf = *it.Confidence
			}
			out = append(out, Proposal{Action: act, Targets: ids, Drop: BucketDeferred, Confidence: conf,
				Reason: Reason{Code: ReasonDeferred, Args: args, Text: clean(it.Reason, reasonRunes)}})
		}
	}
	return out, held
}

// proposalsOf checks each decision on its own. A decision that does not decode, names an
// unknown action, lacks its confidence or a merge target, or carries fields of another action
// is kept as a dropped proposal (reported, never applied). Ids are passed on as sent: the
// gate refuses ids outside the cluster. Cluster entries no decision names (nor a deferred one,
// held) are kept.
func proposalsOf(items []json.RawMessage, c Cluster, held map[string]bool) []Proposal {
	var out []Proposal
	named := map[string]bool{}
	for id := range held {
		named[id] = true
	}
	for _, raw := range items {
		var it planItem
		if err := decodeStrict(raw, &it); err != nil {
			out = append(out, invalid("", nil, ReasonMalformedDecision, ""))
			continue
		}
		ids := dedupe(it.IDs)
		for _, id := range ids {
			named[id] = true
		}
		if it.Into != "" {
			named[it.Into] = true
		}
		act := Action(it.Action)
		reason := clean(it.Reason, reasonRunes)
		switch {
		case !act.Valid():
			out = append(out, invalid(Action(clip(it.Action, 32)), ids, ReasonUnknownAction, reason))
			continue
		case it.Confidence == nil || math.IsNaN(*it.Confidence) || *it.Confidence < 0 || *it.Confidence > 1:
			out = append(out, invalid(act, ids, ReasonBadConfidence, reason))
			continue
		case len(ids) == 0 || len(ids) > MaxClusterSize:
			out = append(out, invalid(act, ids, ReasonBadIDs, reason))
			continue
		case act == ActionMergeInto && it.Into == "":
			out = append(out, invalid(act, ids, ReasonMergeWithoutInto, reason))
			continue
		case act != ActionMergeInto && it.Into != "":
			out = append(out, invalid(act, ids, ReasonMisplacedField, reason))
			continue
		case act != ActionRewriteHint && strings.TrimSpace(it.Hint) != "":
			out = append(out, invalid(act, ids, ReasonMisplacedField, reason))
			continue
		case act == ActionRewriteHint && strings.TrimSpace(it.Hint) == "":
			out = append(out, invalid(act, ids, ReasonRewriteWithoutHint, reason))
			continue
		}
		if act == ActionKeep {
			// A keep changes nothing; only the cluster's own entries are counted as kept.
			var keep []string
			for _, id := range ids {
				if inCluster(c, id) {
					keep = append(keep, id)
				}
			}
			if len(keep) > 0 {
				out = append(out, Proposal{Action: ActionKeep, Targets: keep, Confidence: *it.Confidence})
			}
			continue
		}
		var ev []string
		for _, e := range it.PreservedEvidence {
			if e = clean(e, evidenceRunes); e != "" && len(ev) < maxEvidenceItems {
				ev = append(ev, e)
			}
		}
		out = append(out, Proposal{Action: act, Targets: ids, Into: it.Into, Confidence: *it.Confidence,
			Reason: Reason{Code: ReasonPlanner, Text: reason}, Hint: clean(it.Hint, hintRunes), Evidence: ev})
	}
	var rest []string
	for _, m := range c.Entries {
		if !named[m.ID] {
			rest = append(rest, m.ID)
		}
	}
	if len(rest) > 0 {
		out = append(out, Proposal{Action: ActionKeep, Targets: rest, Confidence: 1})
	}
	return out
}

// invalid is a decision refused by the planner's checks: reported with the problem's reason
// code (and the model's own words, shown as is), never applied.
func invalid(act Action, ids []string, code, text string) Proposal {
	if len(ids) > MaxClusterSize {
		ids = ids[:MaxClusterSize]
	}
	return Proposal{Action: act, Targets: ids, Drop: BucketInvalidProposal, Reason: Reason{Code: code, Text: text}}
}

func dedupe(ids []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, id := range ids {
		if id = strings.TrimSpace(id); id != "" && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

func inCluster(c Cluster, id string) bool {
	for _, m := range c.Entries {
		if m.ID == id {
			return true
		}
	}
	return false
}
