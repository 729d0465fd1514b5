package organizer

import (
	"context"
	"fmt"
	"math"
	"runtime/debug"
	"strings"
	"time"

	"engram/backend/memory"
)

// BucketBatchLimit: an auto decision left for review because the run's one batch was full.
const BucketBatchLimit = "batch_limit"

// plan runs planner on one cluster; a panic fails the cluster only.
func (r *runner) plan(ctx context.Context, planner Planner, c Cluster) (out PlanOutput, err error) {
	defer func() {
		if p := recover(); p != nil {
			r.s.log.Error("organizer: planner panicked", "cluster", c.Key, "panic", p, "stack", string(debug.Stack()))
			err = codeErr(CodeInternal, map[string]any{"Detail": fmt.Sprint(p)}, "unable to plan cluster %s: %v", c.Key, p)
		}
	}()
	var sq ScopeScan
	for _, s := range r.report.Scopes {
		if s.Scope == c.Scope.Scope && s.Key == c.Scope.Key {
			sq = s
		}
	}
	return planner.Plan(ctx, PlanInput{RunID: r.id, Trigger: r.trigger, Mode: r.mode, Cluster: c, Inventory: r.inv,
		Quota: sq, Now: r.s.clock.Now(), ReviewAfter: timeDays(r.settings.ReviewAfterDays), Corpus: r.corpus})
}

// gate validates every proposal, recomputes its risk and decides its outcome.
func (r *runner) gate(props [][]Proposal) {
	claimed := map[string]bool{}
	for ci, ps := range props {
		for _, p := range ps {
			if p.Action == ActionKeep {
				r.report.Counts.Keep += len(p.Targets)
				continue
			}
			d := decide(r.trigger, r.mode, r.clusters[ci], p, r.entries, r.restored, claimed)
			d.ID = fmt.Sprintf("d%03d", len(r.report.Decisions)+1)
			r.report.Decisions = append(r.report.Decisions, d)
		}
	}
	r.report.recount()
}

// limitBatch keeps the auto decisions within one ApplyBatch; the rest wait for review.
func (r *runner) limitBatch() {
	n := 0
	for i := range r.report.Decisions {
		d := &r.report.Decisions[i]
		if d.Outcome != OutcomeAuto {
			continue
		}
		k := len(itemsFor(d))
		if n+k > memory.MaxBatchItems {
			d.Outcome, d.Bucket = OutcomeQueue, BucketBatchLimit
			continue
		}
		n += k
	}
	r.report.recount()
}

// decide turns one proposal into a gated decision. claimed holds the entries earlier
// decisions act on; a proposal touching one of them again is dropped as conflicting. restored
// holds the entries a person restored after the organizer removed them.
func decide(trigger Trigger, mode Mode, c Cluster, p Proposal, entries map[string]*memory.Memory, restored, claimed map[string]bool) Decision {
	d := Decision{ClusterID: c.ID, Action: p.Action, Confidence: clamp01(p.Confidence), Tier: p.Tier, Score: p.Score,
		Reason: p.Reason, Hint: p.Hint, Targets: []EntryRef{}, Status: DecisionDropped, Outcome: OutcomeDrop}
	if d.Reason.Code == "" {
		d.Reason.Code = ReasonPlanner
	}
	drop := func(bucket string) Decision {
		d.Outcome, d.Bucket, d.Status, d.Risk = OutcomeDrop, bucket, DecisionDropped, RiskHigh
		return d
	}
	if p.Drop != "" {
		for _, id := range p.Targets {
			if m, ok := entries[id]; ok && len(d.Targets) < MaxClusterSize {
				d.Targets = append(d.Targets, refOf(m))
			}
		}
		return drop(p.Drop)
	}
	if !p.Action.Valid() {
		return drop(BucketInvalidTarget)
	}
	var targets []*memory.Memory
	seen := map[string]bool{}
	self := false
	for _, id := range p.Targets {
		if p.Action == ActionMergeInto && id == p.Into {
			// The keeper listed among what goes into it: it stays, the others merge.
			self = true
			continue
		}
		if seen[id] {
			continue
		}
		m, ok := entries[id]
		if !ok {
			d.Reason.Args = withArg(d.Reason.Args, "Unknown", clean(id, 64))
			return drop(BucketInvalidTarget)
		}
		seen[id] = true
		targets = append(targets, m)
		d.Targets = append(d.Targets, refOf(m))
	}
	if len(targets) == 0 && self {
		// A merge of a memory into itself only: nothing to merge (it was reported as naming a
		// memory that does not exist).
		if m, ok := entries[p.Into]; ok {
			d.Targets = append(d.Targets, refOf(m))
		}
		return drop(BucketSelfMerge)
	}
	if len(targets) == 0 {
		return drop(BucketInvalidTarget)
	}
	var into *memory.Memory
	if p.Action == ActionMergeInto {
		m, ok := entries[p.Into]
		if !ok {
			d.Reason.Args = withArg(d.Reason.Args, "Unknown", clean(p.Into, 64))
			return drop(BucketInvalidTarget)
		}
		into = m
		ref := refOf(m)
		d.Into = &ref
	}
	all := targets
	if into != nil {
		all = append([]*memory.Memory{into}, targets...)
	}
	// A decision acts inside its cluster only: a planner never reaches into another cluster,
	// let alone another scope instance.
	for _, m := range all {
		if m.Scope != c.Scope.Scope || m.ScopeKey() != c.Scope.Key {
			return drop(BucketCrossScope)
		}
	}
	// A merge keeps its keeper's type: folding a user fact into a feedback rule (or a note
	// into a reference) changes what the statement is and where it is shown to agents, which
	// only a person may decide (a model's merge across types was applied at low risk).
	if into != nil {
		for _, m := range targets {
			if m.Type != into.Type {
				return drop(BucketCrossType)
			}
		}
	}
	for _, m := range all {
		if !inCluster(c, m.ID) {
			return drop(BucketOutsideCluster)
		}
	}
	for _, m := range all {
		if claimed[m.ID] {
			return drop(BucketConflicting)
		}
	}
	d.Evidence = foundEvidence(p.Evidence, all)
	in := RiskInput{Action: p.Action, Confidence: d.Confidence}
	for _, m := range all {
		if m.Scope != c.Scope.Scope || m.ScopeKey() != c.Scope.Key {
			in.CrossScope = true
		}
		if m.Reviewed {
			in.TouchesReviewed = true
		}
		if restored[m.ID] {
			in.TouchesRestored = true
		}
	}
	for _, m := range targets {
		if m.Reviewed && (p.Action == ActionDelete || p.Action == ActionMergeInto) {
			in.RemovesReviewed = true
		}
	}
	if p.Action == ActionMergeInto {
		pres, bucket := preserve(into, targets, p.Body)
		if bucket != "" {
			return drop(bucket)
		}
		if lost := lostEvidence(d.Evidence, into, pres); lost != "" {
			d.Reason.Args = withArg(d.Reason.Args, "Lost", lost)
			return drop(BucketEvidenceLost)
		}
		d.Preserved = pres
		in.Unreviews = pres.Unreview
	}
	d.Risk = ComputeRisk(in)
	if p.Action == ActionMarkReview {
		for _, m := range targets {
			if n := valuesLimit("tags"); n > 0 && !contains(m.Tags, ReviewTag) && len(m.Tags) >= n {
				return drop(BucketFieldsTooLarge) // no room for the review tag
			}
		}
	}
	d.Outcome, d.Bucket = Gate(trigger, mode, p.Action, d.Risk, d.Confidence)
	if p.Oversized && d.Outcome == OutcomeAuto {
		d.Outcome, d.Bucket = OutcomeQueue, BucketOversizedPlan
	}
	if in.TouchesRestored && d.Bucket == BucketHighRisk {
		d.Bucket = BucketRestoredByPerson
	}
	if d.Outcome == OutcomeDrop {
		d.Status = DecisionDropped
		return d
	}
	d.Status = DecisionPending
	for _, m := range all {
		claimed[m.ID] = true
	}
	return d
}

func clamp01(f float64) float64 {
	switch {
	case math.IsNaN(f) || f < 0:
		return 0
	case f > 1:
		return 1
	}
	return f
}

func timeDays(days int) time.Duration { return time.Duration(days) * 24 * time.Hour }

func withArg(args map[string]any, k string, v any) map[string]any {
	out := map[string]any{k: v}
	for key, val := range args {
		if key != k {
			out[key] = val
		}
	}
	return out
}

// foundEvidence keeps the evidence strings found (normalised) in the entries' own text; what
// a planner made up is not evidence.
func foundEvidence(ev []string, entries []*memory.Memory) []string {
	var out []string
	for _, e := range ev {
		ne := Normalize(e)
		if ne == "" {
			continue
		}
		for _, m := range entries {
			if containsAtBoundary(Normalize(entryText(m)), ne) {
				out = append(out, e)
				break
			}
		}
	}
	return out
}

// lostEvidence returns the first evidence string the merged keeper would no longer hold.
func lostEvidence(ev []string, keeper *memory.Memory, p *Preserved) string {
	if len(ev) == 0 {
		return ""
	}
	text := Normalize(strings.Join(append([]string{keeper.Title, p.Body, p.SourceQuote, keeper.Reasoning}, p.Aliases...), "\n"))
	for _, e := range ev {
		if !containsAtBoundary(text, Normalize(e)) {
			return e
		}
	}
	return ""
}

// entryText is everything of an entry evidence may quote.
func entryText(m *memory.Memory) string {
	return strings.Join(append([]string{m.Title, m.Body, m.SourceQuote, m.Reasoning}, m.Aliases...), "\n")
}
