package organizer

import (
	"context"
	"fmt"
	"math"
	"runtime/debug"
	"sort"

	"engram/backend/memory"
)

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
		if r.only != nil && (sq.Scope != r.only.Scope || sq.Key != r.only.Key) {
			continue
		}
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
		if r.only != nil && (key.Scope != r.only.Scope || key.Key != r.only.Key) {
			return true
		}
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
	if r.restored, err = r.s.store.RestoredByPerson(ctx); err != nil {
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
	var all []*memory.Memory
	for _, g := range r.groups {
		all = append(all, g.entries...)
	}
	r.corpus = NewCorpus(all)
	return nil
}

// cluster splits one scope instance: a topic clusterer when one is configured and the
// instance holds more than MaxClusterSize entries, else (or when it fails) structural groups.
func (r *runner) cluster(ctx context.Context, g *scopeGroup) ([]Cluster, error) {
	if r.clusterer != nil {
		if len(g.entries) <= MaxClusterSize {
			return []Cluster{{Key: fmt.Sprintf("%s:all:%s/1", g.inst.Scope, shortHash(g.inst.Key)), Scope: g.inst,
				Entries: g.entries}}, nil
		}
		sc := ScopeClustering{Scope: g.inst.Scope, Key: g.inst.Key, Clusterer: r.clusterer.Name()}
		if r.llmStop.tripped != nil {
			// The model failed for good earlier in this run: not asked again.
			sc.Clusterer, sc.Fallback = StructuralClusterer{}.Name(), r.llmStop.stopped()
			r.report.Clustering = append(r.report.Clustering, sc)
			return StructuralClusterer{Corpus: r.corpus}.Groups(ctx, g.inst, g.entries, MaxClusterSize)
		}
		cs, err := r.topicClusters(ctx, g, &sc)
		if ctx.Err() == nil {
			r.llmStop.note(scopeName(g.inst), runErrorOf(err))
		}
		if err == nil {
			r.report.Clustering = append(r.report.Clustering, sc)
			return cs, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		sc.Clusterer, sc.Topics, sc.Fallback = StructuralClusterer{}.Name(), 0, runErrorOf(err)
		r.report.Clustering = append(r.report.Clustering, sc)
		if r.report.ClusterFallback == nil {
			r.report.ClusterFallback = sc.Fallback
		}
		r.s.log.Warn("organizer: topic clustering failed; using structural groups", "run", r.id, "scope", g.inst.Scope,
			"key", g.inst.Key, "err", err)
	}
	return StructuralClusterer{Corpus: r.corpus}.Groups(ctx, g.inst, g.entries, MaxClusterSize)
}

// topicClusters asks the configured clusterer and checks its answer: known ids of this scope
// instance only, each entry once, at most MaxTopicClusters clusters; a cluster larger than
// MaxClusterSize is split, and entries left out are grouped structurally.
func (r *runner) topicClusters(ctx context.Context, g *scopeGroup, sc *ScopeClustering) (cs []Cluster, err error) {
	defer func() {
		if p := recover(); p != nil {
			r.s.log.Error("organizer: clusterer panicked", "run", r.id, "panic", p, "stack", string(debug.Stack()))
			cs, err = nil, codeErr(CodeInternal, map[string]any{"Detail": fmt.Sprint(p)}, "unable to cluster: %v", p)
		}
	}()
	out, err := r.clusterer.Cluster(ctx, ClusterInput{RunID: r.id, Scope: g.inst, Entries: g.entries,
		MaxClusters: MaxTopicClusters, MaxSize: MaxClusterSize})
	r.addUsage(PhaseCluster, out.Usage)
	if err != nil {
		return nil, err
	}
	sc.UnknownIDs, sc.RepeatedIDs = out.UnknownIDs, out.RepeatedIDs
	if len(out.Groups) > MaxTopicClusters {
		return nil, codeErr(CodeInternal, map[string]any{"Detail": "too many clusters"},
			"unable to use %d topic clusters (at most %d)", len(out.Groups), MaxTopicClusters)
	}
	inGroup := map[string]*memory.Memory{}
	for _, m := range g.entries {
		inGroup[m.ID] = m
	}
	used := map[string]bool{}
	base := fmt.Sprintf("%s:topic:%s", g.inst.Scope, shortHash(g.inst.Key))
	for i, ids := range out.Groups {
		var members []*memory.Memory
		for _, id := range ids {
			m, ok := inGroup[id]
			switch {
			case !ok:
				sc.UnknownIDs++
			case used[id]:
				sc.RepeatedIDs++
			default:
				used[id] = true
				members = append(members, m)
			}
		}
		topic := ""
		if i < len(out.Topics) {
			topic = out.Topics[i]
		}
		if len(members) > 0 {
			sc.Topics++
		}
		for len(members) > 0 {
			n := min(len(members), MaxClusterSize)
			cs = append(cs, Cluster{Key: fmt.Sprintf("%s/%d", base, len(cs)+1), Scope: g.inst, Topic: topic, Entries: members[:n]})
			members = members[n:]
		}
	}
	var rest []*memory.Memory
	for _, m := range g.entries {
		if !used[m.ID] {
			rest = append(rest, m)
		}
	}
	sc.LeftOut = len(rest)
	if len(rest) > 0 {
		more, err := StructuralClusterer{Corpus: r.corpus}.Groups(ctx, g.inst, rest, MaxClusterSize)
		if err != nil {
			return nil, err
		}
		cs = append(cs, more...)
	}
	return cs, nil
}

// scopeName names a scope instance in a report's words: global, the project's folder or the
// agent.
func scopeName(inst ScopeInstance) string {
	switch {
	case inst.Workdir != "":
		return string(inst.Scope) + " " + inst.Workdir
	case inst.Agent != "":
		return string(inst.Scope) + " " + inst.Agent
	}
	return string(inst.Scope)
}
