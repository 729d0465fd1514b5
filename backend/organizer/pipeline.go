package organizer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"sort"

	"engram/backend/memory"
)

// BucketBatchLimit: an auto decision left for review because the run's one batch was full.
const BucketBatchLimit = "batch_limit"

// errAborted stops a run: Abort was called here, or another process marked the row aborted.
var errAborted = errors.New("organizer: unable to continue: the run was aborted")

// scopeGroup is the live ordinary memories of one scope instance at scan time.
type scopeGroup struct {
	inst    ScopeInstance
	scan    int // index into report.Scopes
	entries []*memory.Memory
}

// runner executes one run: scan → cluster → plan → gate → apply, recording each phase.
type runner struct {
	s        *Service
	id       string
	trigger  Trigger
	mode     Mode
	settings Settings
	report   *Report

	entries  map[string]*memory.Memory
	groups   []*scopeGroup
	clusters []Cluster
	inv      []InventoryItem

	phase    Phase
	initial  int
	headroom int
	tokens   int
	applied  bool // the apply batch ran: the run must finish as done whatever else happens
	done     int
	total    int
}

func (r *runner) row() progressRow {
	raw, _ := json.Marshal(r.report)
	final := r.initial - r.report.Counts.Removed
	return progressRow{phase: r.phase, initial: r.initial, final: final, ratio: ratio(final, r.initial),
		headroom: r.headroom, tokens: r.tokens, report: string(raw), reportChange: true}
}

// ratio is final_count / initial_count: 1 when nothing was removed, lower when the store shrank.
func ratio(final, initial int) float64 {
	if initial <= 0 {
		return 1
	}
	return math.Round(float64(final)/float64(initial)*10000) / 10000
}

// enter starts a phase: it records the row (noticing an abort from another process) and
// tells the progress listener.
func (r *runner) enter(ctx context.Context, ph Phase, total int) error {
	if err := ctx.Err(); err != nil {
		return errAborted
	}
	r.phase, r.done, r.total = ph, 0, total
	ok, err := r.s.runs.update(context.WithoutCancel(ctx), r.id, r.row())
	if err != nil {
		return err
	}
	if !ok {
		return errAborted
	}
	r.s.progress(Progress{RunID: r.id, Phase: ph, Status: StatusRunning, Done: 0, Total: total})
	return nil
}

// step reports progress inside a phase and checks for an abort.
func (r *runner) step(ctx context.Context, done int, checkRow bool) error {
	r.done = done
	r.s.progress(Progress{RunID: r.id, Phase: r.phase, Status: StatusRunning, Done: done, Total: r.total})
	if ctx.Err() != nil {
		return errAborted
	}
	if checkRow {
		p := r.row()
		p.reportChange = false
		ok, err := r.s.runs.update(context.WithoutCancel(ctx), r.id, p)
		if err != nil {
			return err
		}
		if !ok {
			return errAborted
		}
	}
	return nil
}

// run executes the pipeline. A panic inside becomes a failed run, never a crashed app.
func (r *runner) run(ctx context.Context) (err error) {
	defer func() {
		if p := recover(); p != nil {
			r.s.log.Error("organizer: run panicked", "run", r.id, "panic", p, "stack", string(debug.Stack()))
			err = codeErr(CodeInternal, map[string]any{"Detail": fmt.Sprint(p)}, "unable to finish the run: %v", p)
		}
	}()
	if err := r.enter(ctx, PhaseScan, 0); err != nil {
		return err
	}
	if n, err := r.s.snaps.prune(r.s.retention); err != nil {
		r.s.log.Warn("organizer: unable to prune snapshots", "err", err)
	} else if n > 0 {
		r.s.log.Info("organizer: pruned old snapshots", "count", n)
	}
	if err := r.scan(ctx); err != nil {
		if ctx.Err() != nil {
			return errAborted
		}
		return err
	}

	if err := r.enter(ctx, PhaseCluster, len(r.groups)); err != nil {
		return err
	}
	for i, g := range r.groups {
		cs, err := r.cluster(ctx, g)
		if err != nil {
			return errAborted // only cancellation fails structural clustering
		}
		for _, c := range cs {
			c.ID = fmt.Sprintf("c%03d", len(r.clusters)+1)
			r.clusters = append(r.clusters, c)
		}
		if err := r.step(ctx, i+1, false); err != nil {
			return err
		}
	}
	r.report.Counts.Clusters = len(r.clusters)

	if err := r.enter(ctx, PhasePlan, len(r.clusters)); err != nil {
		return err
	}
	proposals := make([][]Proposal, len(r.clusters))
	for i, c := range r.clusters {
		out, err := r.plan(ctx, c)
		cr := ClusterReport{ID: c.ID, Key: c.Key, Scope: c.Scope.Scope, ScopeKey: c.Scope.Key, Size: len(c.Entries),
			EntryIDs: make([]string, 0, len(c.Entries)), Status: "ok"}
		for _, m := range c.Entries {
			cr.EntryIDs = append(cr.EntryIDs, m.ID)
		}
		r.tokens += out.Usage.Total()
		if err != nil {
			if ctx.Err() != nil {
				return errAborted
			}
			cr.Status, cr.Error = "failed", runErrorOf(err)
			r.report.Counts.ClustersFailed++
			r.s.log.Warn("organizer: cluster failed; the run goes on", "run", r.id, "cluster", c.Key, "err", err)
		} else {
			proposals[i] = out.Proposals
		}
		r.report.Clusters = append(r.report.Clusters, cr)
		if err := r.step(ctx, i+1, true); err != nil {
			return err
		}
	}

	if err := r.enter(ctx, PhaseGate, len(r.clusters)); err != nil {
		return err
	}
	r.gate(proposals)
	r.limitBatch()

	var auto []*Decision
	for i := range r.report.Decisions {
		if r.report.Decisions[i].Outcome == OutcomeAuto {
			auto = append(auto, &r.report.Decisions[i])
		}
	}
	if err := r.enter(ctx, PhaseApply, len(auto)); err != nil {
		return err
	}
	if r.trigger == TriggerScheduled && len(auto) > 0 {
		r.applied = true
		if err := r.s.applyDecisions(ctx, r.id, r.report, auto, "run"); err != nil {
			return err
		}
		r.done = len(auto)
		r.s.progress(Progress{RunID: r.id, Phase: PhaseApply, Status: StatusRunning, Done: len(auto), Total: len(auto)})
	}
	return nil
}

// scan reads the quota summary and every live ordinary memory, grouped by scope instance.
func (r *runner) scan(ctx context.Context) error {
	q, err := r.s.store.Quota(ctx)
	if err != nil {
		return wrapErr(CodeScanFailed, err, "unable to read the quota summary")
	}
	r.report.QuotaLevel = q.Level
	r.headroom = math.MaxInt
	quota := map[ScopeInstance]memory.ScopeQuota{}
	for _, sq := range q.Scopes {
		quota[ScopeInstance{Scope: sq.Scope, Key: sq.Key}] = sq
		r.headroom = min(r.headroom, sq.Headroom)
	}
	if r.headroom == math.MaxInt {
		r.headroom = r.s.store.QuotaLimit()
	}
	r.report.QuotaHeadroom = r.headroom

	byInst := map[ScopeInstance]*scopeGroup{}
	r.entries = map[string]*memory.Memory{}
	err = r.s.store.ScanMemories(ctx, memory.Filter{NoDaily: true}, "", func(m *memory.Memory) bool {
		key := ScopeInstance{Scope: m.Scope, Key: m.ScopeKey()}
		g := byInst[key]
		if g == nil {
			g = &scopeGroup{inst: ScopeInstance{Scope: m.Scope, Key: key.Key, Workdir: m.Workdir, Agent: m.Agent}}
			byInst[key] = g
		}
		if g.inst.Workdir == "" {
			g.inst.Workdir = m.Workdir
		}
		g.entries = append(g.entries, m)
		r.entries[m.ID] = m
		r.inv = append(r.inv, InventoryItem{ID: m.ID, Slug: m.Slug, Title: m.Title, Scope: m.Scope, Key: key.Key, Type: m.Type})
		return true
	})
	if err != nil {
		return wrapErr(CodeScanFailed, err, "unable to read the memories")
	}
	for _, g := range byInst {
		r.groups = append(r.groups, g)
	}
	sort.Slice(r.groups, func(i, j int) bool {
		if r.groups[i].inst.Scope != r.groups[j].inst.Scope {
			return r.groups[i].inst.Scope < r.groups[j].inst.Scope
		}
		return r.groups[i].inst.Key < r.groups[j].inst.Key
	})
	limit := r.s.store.QuotaLimit()
	for _, g := range r.groups {
		sq, ok := quota[ScopeInstance{Scope: g.inst.Scope, Key: g.inst.Key}]
		if !ok {
			sq = memory.ScopeQuota{Used: len(g.entries), Limit: limit, Headroom: limit - len(g.entries),
				Level: memory.LadderLevel(limit - len(g.entries))}
		}
		target := max(sq.Limit-100, 0)
		g.scan = len(r.report.Scopes)
		r.report.Scopes = append(r.report.Scopes, ScopeScan{Scope: g.inst.Scope, Key: g.inst.Key, Workdir: g.inst.Workdir,
			Agent: g.inst.Agent, Count: len(g.entries), Used: sq.Used, Limit: sq.Limit, Headroom: sq.Headroom, Level: sq.Level,
			Target: target, OverTarget: max(sq.Used-target, 0)})
		r.initial += len(g.entries)
	}
	r.report.Counts.Scanned, r.report.Counts.Scopes = r.initial, len(r.groups)
	return nil
}

// cluster splits one scope instance: a topic clusterer when one is configured and the
// instance holds more than MaxClusterSize entries, else (or when it fails) structural groups.
func (r *runner) cluster(ctx context.Context, g *scopeGroup) ([]Cluster, error) {
	if r.s.clusterer != nil {
		if len(g.entries) <= MaxClusterSize {
			return []Cluster{{Key: fmt.Sprintf("%s:all:%s/1", g.inst.Scope, shortHash(g.inst.Key)), Scope: g.inst,
				Entries: g.entries}}, nil
		}
		cs, err := r.topicClusters(ctx, g)
		if err == nil {
			return cs, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if r.report.ClusterFallback == nil {
			r.report.ClusterFallback = runErrorOf(err)
		}
		r.s.log.Warn("organizer: topic clustering failed; using structural groups", "run", r.id, "err", err)
	}
	return StructuralClusterer{}.Groups(ctx, g.inst, g.entries, MaxClusterSize)
}

// topicClusters asks the configured clusterer and checks its answer: known ids of this scope
// instance only, each entry once, at most MaxTopicClusters clusters; a cluster larger than
// MaxClusterSize is split, and entries left out are grouped structurally.
func (r *runner) topicClusters(ctx context.Context, g *scopeGroup) ([]Cluster, error) {
	out, err := r.s.clusterer.Cluster(ctx, ClusterInput{RunID: r.id, Scope: g.inst, Entries: g.entries,
		MaxClusters: MaxTopicClusters, MaxSize: MaxClusterSize})
	r.tokens += out.Usage.Total()
	if err != nil {
		return nil, err
	}
	if len(out.Groups) > MaxTopicClusters {
		return nil, codeErr(CodeInternal, map[string]any{"Detail": "too many clusters"},
			"unable to use %d topic clusters (at most %d)", len(out.Groups), MaxTopicClusters)
	}
	inGroup := map[string]*memory.Memory{}
	for _, m := range g.entries {
		inGroup[m.ID] = m
	}
	used := map[string]bool{}
	var cs []Cluster
	base := fmt.Sprintf("%s:topic:%s", g.inst.Scope, shortHash(g.inst.Key))
	for _, ids := range out.Groups {
		var members []*memory.Memory
		for _, id := range ids {
			if m, ok := inGroup[id]; ok && !used[id] {
				used[id] = true
				members = append(members, m)
			}
		}
		for len(members) > 0 {
			n := min(len(members), MaxClusterSize)
			cs = append(cs, Cluster{Key: fmt.Sprintf("%s/%d", base, len(cs)+1), Scope: g.inst, Entries: members[:n]})
			members = members[n:]
		}
	}
	var rest []*memory.Memory
	for _, m := range g.entries {
		if !used[m.ID] {
			rest = append(rest, m)
		}
	}
	if len(rest) > 0 {
		more, err := StructuralClusterer{}.Groups(ctx, g.inst, rest, MaxClusterSize)
		if err != nil {
			return nil, err
		}
		cs = append(cs, more...)
	}
	return cs, nil
}

// plan runs the planner on one cluster; a panic fails the cluster only.
func (r *runner) plan(ctx context.Context, c Cluster) (out PlanOutput, err error) {
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
	return r.s.planner.Plan(ctx, PlanInput{RunID: r.id, Trigger: r.trigger, Mode: r.mode, Cluster: c, Inventory: r.inv,
		Quota: sq, Now: r.s.clock.Now(), ReviewAfter: timeDays(r.settings.ReviewAfterDays)})
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
			d := decide(r.trigger, r.mode, r.clusters[ci], p, r.entries, claimed)
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
// decisions act on; a proposal touching one of them again is dropped as conflicting.
func decide(trigger Trigger, mode Mode, c Cluster, p Proposal, entries map[string]*memory.Memory, claimed map[string]bool) Decision {
	d := Decision{ClusterID: c.ID, Action: p.Action, Confidence: clamp01(p.Confidence), Tier: p.Tier, Score: p.Score,
		Reason: p.Reason, Hint: p.Hint, Targets: []EntryRef{}, Status: DecisionDropped, Outcome: OutcomeDrop}
	if d.Reason.Code == "" {
		d.Reason.Code = ReasonPlanner
	}
	drop := func(bucket string) Decision {
		d.Outcome, d.Bucket, d.Status, d.Risk = OutcomeDrop, bucket, DecisionDropped, RiskHigh
		return d
	}
	if !p.Action.Valid() {
		return drop(BucketInvalidTarget)
	}
	var targets []*memory.Memory
	seen := map[string]bool{}
	for _, id := range p.Targets {
		m, ok := entries[id]
		if !ok {
			return drop(BucketInvalidTarget)
		}
		if seen[id] {
			continue
		}
		seen[id] = true
		targets = append(targets, m)
		d.Targets = append(d.Targets, refOf(m))
	}
	if len(targets) == 0 {
		return drop(BucketInvalidTarget)
	}
	var into *memory.Memory
	if p.Action == ActionMergeInto {
		m, ok := entries[p.Into]
		if !ok || seen[p.Into] {
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
	for _, m := range all {
		if claimed[m.ID] {
			return drop(BucketConflicting)
		}
	}
	in := RiskInput{Action: p.Action, Confidence: d.Confidence}
	for _, m := range all {
		if m.Scope != c.Scope.Scope || m.ScopeKey() != c.Scope.Key {
			in.CrossScope = true
		}
		if m.Reviewed {
			in.TouchesReviewed = true
		}
	}
	for _, m := range targets {
		if m.Reviewed && (p.Action == ActionDelete || p.Action == ActionMergeInto) {
			in.RemovesReviewed = true
		}
	}
	d.Risk = ComputeRisk(in)
	if p.Action == ActionMergeInto {
		pres, bucket := preserve(into, targets, p.Body)
		if bucket != "" {
			return drop(bucket)
		}
		d.Preserved = pres
	}
	d.Outcome, d.Bucket = Gate(trigger, mode, p.Action, d.Risk, d.Confidence)
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

// itemsFor renders a decision as apply_batch items: a merge is the keeper's replace-update
// and the others' deletes under one group_id, so the merged write lands before any delete and
// no delete happens if it failed. Every item carries the version seen at scan time.
func itemsFor(d *Decision) []memory.Item {
	var items []memory.Item
	switch d.Action {
	case ActionMergeInto:
		p := d.Preserved
		body, quote := p.Body, p.SourceQuote
		upd := memory.Item{Op: memory.OpUpdate, ID: d.Into.ID, GroupID: d.ID, Mode: "replace", Body: &body,
			Aliases: nonNil(p.Aliases), Tags: nonNil(p.Tags), Supersedes: nonNil(p.Supersedes), SourceQuote: &quote,
			Confidence: p.Confidence, ExpectedVersion: d.Into.Version}
		if p.Unreview {
			f := false
			upd.Reviewed = &f
		}
		items = append(items, upd)
		for _, t := range d.Targets {
			items = append(items, memory.Item{Op: memory.OpDelete, ID: t.ID, GroupID: d.ID, ExpectedVersion: t.Version})
		}
	case ActionDelete:
		for _, t := range d.Targets {
			items = append(items, memory.Item{Op: memory.OpDelete, ID: t.ID, GroupID: d.ID, ExpectedVersion: t.Version})
		}
	case ActionMarkReview:
		for _, t := range d.Targets {
			f := false
			items = append(items, memory.Item{Op: memory.OpUpdate, ID: t.ID, GroupID: d.ID, Mode: "merge",
				Tags: []string{ReviewTag}, Reviewed: &f, ExpectedVersion: t.Version})
		}
	}
	return items
}

func nonNil(v []string) []string {
	if v == nil {
		return []string{}
	}
	return v
}
