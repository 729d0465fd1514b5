package organizer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"time"

	"engram/backend/memory"
)

// Cluster sizes of DESIGN §7: a scope instance with more than MaxClusterSize entries is split
// into topic clusters (at most MaxTopicClusters from a topic clusterer) or structural groups
// of at most MaxClusterSize.
const (
	MaxClusterSize   = 8
	MaxTopicClusters = 12
)

// ReviewTag is the tag an applied mark_review decision adds, so the Review view can list what
// the organizer sent back to a person.
const ReviewTag = "needs-review"

// Usage is what model calls of a phase cost; it sums into the run's token_usage_total. The
// offline clusterer and planner report zero.
type Usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

// Total is input plus output tokens.
func (u Usage) Total() int { return u.InputTokens + u.OutputTokens }

// ScopeInstance names one scope instance: global, one project, or one agent.
type ScopeInstance struct {
	Scope   memory.Scope `json:"scope"`
	Key     string       `json:"key"`
	Workdir string       `json:"workdir,omitempty"`
	Agent   string       `json:"agent,omitempty"`
}

// Cluster is a group of entries of one scope instance handed to a planner at once.
type Cluster struct {
	ID    string
	Key   string
	Scope ScopeInstance
	// Topic is the topic clusterer's label; empty for structural groups.
	Topic   string
	Entries []*memory.Memory
}

// ClusterInput is one scope instance to split into topic clusters.
type ClusterInput struct {
	RunID       string
	Scope       ScopeInstance
	Entries     []*memory.Memory
	MaxClusters int
	MaxSize     int
}

// ClusterOutput lists clusters as entry ids. Entries left out are grouped structurally.
type ClusterOutput struct {
	Groups [][]string
	// Topics label Groups (same order) when the clusterer names its clusters.
	Topics []string
	// UnknownIDs and RepeatedIDs count what the clusterer's own validation dropped: ids not
	// in the scope instance, and ids already in an earlier cluster.
	UnknownIDs  int
	RepeatedIDs int
	Usage       Usage
}

// Clusterer splits a scope instance into topic clusters. It is the seam for an LLM clusterer
// that answers through a SubmitMemoryTopicClusters tool call; with none configured (or when it
// fails) the organizer falls back to structural scope:type:hash groups.
type Clusterer interface {
	Name() string
	Cluster(ctx context.Context, in ClusterInput) (ClusterOutput, error)
}

// InventoryItem is one line of the global inventory planners see beside their cluster, so a
// model can tell that a topic already lives elsewhere.
type InventoryItem struct {
	ID string `json:"id"`
	// Cluster is the id of the cluster the entry was put in.
	Cluster string       `json:"cluster"`
	Slug    string       `json:"slug"`
	Title   string       `json:"title"`
	Scope   memory.Scope `json:"scope"`
	Key     string       `json:"key"`
	Type    memory.Type  `json:"type"`
}

// PlanInput is what a planner gets for one cluster.
type PlanInput struct {
	RunID   string
	Trigger Trigger
	Mode    Mode
	Cluster Cluster
	// Inventory lists every scanned entry of every scope instance.
	Inventory []InventoryItem
	// Quota is the cluster's scope instance with its compression target (limit − 100).
	Quota       ScopeScan
	Now         time.Time
	ReviewAfter time.Duration
}

// Proposal is one decision as a planner proposes it (the shape of a SubmitMemoryOrganizePlan
// item). The gate validates it and recomputes its risk; nothing a planner says is trusted.
type Proposal struct {
	Action Action `json:"action"`
	// Targets are entry ids; for merge_into, the entries folded into Into.
	Targets    []string `json:"targets"`
	Into       string   `json:"into,omitempty"`
	Confidence float64  `json:"confidence"`
	Tier       Tier     `json:"tier,omitempty"`
	Score      float64  `json:"score,omitempty"`
	Reason     Reason   `json:"reason"`
	Hint       string   `json:"hint,omitempty"`
	// Body is a planner's merged text for merge_into; nil lets the organizer merge the bodies
	// itself (keeper first, then whatever the others add). The LLM planner never sets it: a
	// model never writes a memory's text.
	Body *string `json:"body,omitempty"`
	// Evidence is what the planner says must survive the decision, verbatim from the entries;
	// the gate drops a merge whose result would lose any of it.
	Evidence []string `json:"evidence,omitempty"`
	// Drop is set by a planner's own validation: the proposal is reported as dropped in this
	// bucket and never applied.
	Drop string `json:"-"`
}

// PlanOutput is a planner's answer for one cluster.
type PlanOutput struct {
	Proposals []Proposal
	Usage     Usage
}

// Planner proposes decisions for one cluster. It is the seam for an LLM planner answering
// through a SubmitMemoryOrganizePlan tool call; OfflinePlanner is the built-in one. An error
// fails only its cluster: the run records it and goes on.
type Planner interface {
	Name() string
	Plan(ctx context.Context, in PlanInput) (PlanOutput, error)
}

// OfflinePlanner finds near-duplicates by tiers (containment, cosine, Jaccard) and proposes
// merge_into with the preserved evidence, mark_review for low-confidence unreviewed entries
// older than the review age, and keep for the rest. It never crosses scope instances.
type OfflinePlanner struct{}

// Name is "offline".
func (OfflinePlanner) Name() string { return "offline" }

// Plan proposes decisions for one cluster.
func (OfflinePlanner) Plan(ctx context.Context, in PlanInput) (PlanOutput, error) {
	entries := append([]*memory.Memory{}, in.Cluster.Entries...)
	an := NewAnalyzer()
	texts := map[string]*Text{}
	for _, m := range entries {
		texts[m.ID] = an.Analyze(m.Body)
	}
	sortByKeeperPriority(entries, texts)
	var out PlanOutput
	done := map[string]bool{}
	for i, keeper := range entries {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		if done[keeper.ID] {
			continue
		}
		var members []string
		weakest := Match{Tier: TierExact, Score: 1}
		conf := 1.0
		guardedAny := false
		for _, o := range entries[i+1:] {
			if done[o.ID] || !sameInstance(keeper, o) {
				continue
			}
			m := Compare(texts[keeper.ID], texts[o.ID])
			if m.Tier == TierNone {
				continue
			}
			members = append(members, o.ID)
			done[o.ID] = true
			if tierRank(m.Tier) > tierRank(weakest.Tier) || (m.Tier == weakest.Tier && m.Score < weakest.Score) {
				weakest = m
			}
			if c := tierConfidence(m); c < conf {
				conf = c
			}
			guardedAny = guardedAny || m.Guarded
		}
		if len(members) == 0 {
			continue
		}
		done[keeper.ID] = true
		code := ReasonSimilar
		switch {
		case guardedAny && (weakest.Tier == TierExact || weakest.Tier == TierContainment):
			code = ReasonSymbolsDiffer
		case weakest.Tier == TierExact:
			code = ReasonExactDuplicate
		case weakest.Tier == TierContainment:
			code = ReasonContained
		case guardedAny:
			code = ReasonSimilarGuarded
		}
		out.Proposals = append(out.Proposals, Proposal{
			Action: ActionMergeInto, Targets: members, Into: keeper.ID, Confidence: conf, Tier: weakest.Tier,
			Score: round3(weakest.Score),
			Reason: Reason{Code: code, Args: map[string]any{"Into": keeper.Slug, "Count": len(members),
				"Tier": string(weakest.Tier), "Score": round3(weakest.Score)}},
		})
	}
	for _, m := range entries {
		if done[m.ID] {
			continue
		}
		age := in.Now.Sub(m.Created)
		if in.ReviewAfter > 0 && m.Confidence == memory.ConfidenceLow && !m.Reviewed && age >= in.ReviewAfter && !hasTag(m, ReviewTag) {
			out.Proposals = append(out.Proposals, Proposal{Action: ActionMarkReview, Targets: []string{m.ID}, Confidence: 0.75,
				Tier: TierAge, Reason: Reason{Code: ReasonStaleLowConf, Args: map[string]any{"Days": int(age.Hours() / 24)}}})
			continue
		}
		out.Proposals = append(out.Proposals, Proposal{Action: ActionKeep, Targets: []string{m.ID}, Confidence: 1})
	}
	return out, nil
}

func round3(f float64) float64 { return float64(int(f*1000+0.5)) / 1000 }

func hasTag(m *memory.Memory, tag string) bool {
	for _, t := range m.Tags {
		if t == tag {
			return true
		}
	}
	return false
}

func sameInstance(a, b *memory.Memory) bool {
	return a.Scope == b.Scope && a.ScopeKey() == b.ScopeKey()
}

var confRank = map[memory.Confidence]int{memory.ConfidenceHigh: 2, memory.ConfidenceMedium: 1, memory.ConfidenceLow: 0}

// sortByKeeperPriority orders entries as merge keepers: reviewed first (a person vouched for
// it), then the most complete body, the higher confidence, the newer, the smaller id.
func sortByKeeperPriority(entries []*memory.Memory, texts map[string]*Text) {
	sort.SliceStable(entries, func(i, j int) bool {
		a, b := entries[i], entries[j]
		if a.Reviewed != b.Reviewed {
			return a.Reviewed
		}
		if la, lb := len(texts[a.ID].Norm), len(texts[b.ID].Norm); la != lb {
			return la > lb
		}
		if confRank[a.Confidence] != confRank[b.Confidence] {
			return confRank[a.Confidence] > confRank[b.Confidence]
		}
		if !a.Updated.Equal(b.Updated) {
			return a.Updated.After(b.Updated)
		}
		return a.ID < b.ID
	})
}

// StructuralClusterer is the offline clusterer: per scope instance, one group per type,
// split into clusters of at most MaxClusterSize. Near-duplicates are packed into the same
// cluster so the planner sees them together.
type StructuralClusterer struct{}

// Name is "structural".
func (StructuralClusterer) Name() string { return "structural" }

// Groups splits entries (of one scope instance) into structural clusters with their keys
// ("scope:type:hash", hash = first 8 hex of sha256 of the scope key).
func (StructuralClusterer) Groups(ctx context.Context, inst ScopeInstance, entries []*memory.Memory, maxSize int) ([]Cluster, error) {
	if maxSize <= 0 {
		maxSize = MaxClusterSize
	}
	byType := map[memory.Type][]*memory.Memory{}
	var types []memory.Type
	for _, m := range entries {
		if _, ok := byType[m.Type]; !ok {
			types = append(types, m.Type)
		}
		byType[m.Type] = append(byType[m.Type], m)
	}
	sort.Slice(types, func(i, j int) bool { return types[i] < types[j] })
	var out []Cluster
	for _, typ := range types {
		group := byType[typ]
		sort.SliceStable(group, func(i, j int) bool {
			if !group[i].Created.Equal(group[j].Created) {
				return group[i].Created.Before(group[j].Created)
			}
			return group[i].ID < group[j].ID
		})
		comps, err := similarComponents(ctx, group)
		if err != nil {
			return nil, err
		}
		key := fmt.Sprintf("%s:%s:%s", inst.Scope, typ, shortHash(inst.Key))
		for i, bin := range pack(comps, maxSize) {
			c := Cluster{Key: fmt.Sprintf("%s/%d", key, i+1), Scope: inst}
			for _, idx := range bin {
				c.Entries = append(c.Entries, group[idx])
			}
			out = append(out, c)
		}
	}
	return out, nil
}

func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:4])
}

// similarComponents links entries that any tier matches and returns the connected components
// as index lists, in order of their first member.
func similarComponents(ctx context.Context, group []*memory.Memory) ([][]int, error) {
	an := NewAnalyzer()
	texts := make([]*Text, len(group))
	for i, m := range group {
		texts[i] = an.Analyze(m.Body)
	}
	parent := make([]int, len(group))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for i := range group {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		for j := i + 1; j < len(group); j++ {
			if find(i) == find(j) {
				continue
			}
			if Compare(texts[i], texts[j]).Tier != TierNone {
				parent[find(j)] = find(i)
			}
		}
	}
	byRoot := map[int]int{}
	var comps [][]int
	for i := range group {
		r := find(i)
		k, ok := byRoot[r]
		if !ok {
			k = len(comps)
			byRoot[r] = k
			comps = append(comps, nil)
		}
		comps[k] = append(comps[k], i)
	}
	return comps, nil
}

// pack puts components into bins of at most size, keeping each component whole when it fits
// (first fit, largest first) and splitting only components larger than a bin.
func pack(comps [][]int, size int) [][]int {
	order := make([]int, len(comps))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return len(comps[order[a]]) > len(comps[order[b]]) })
	var bins [][]int
	for _, ci := range order {
		c := comps[ci]
		for len(c) > size {
			bins = append(bins, append([]int{}, c[:size]...))
			c = c[size:]
		}
		placed := false
		for b := range bins {
			if len(bins[b])+len(c) <= size {
				bins[b] = append(bins[b], c...)
				placed = true
				break
			}
		}
		if !placed {
			bins = append(bins, append([]int{}, c...))
		}
	}
	return bins
}
