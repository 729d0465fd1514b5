package organizer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"

	"engram/backend/memory"
)

// StructuralClusterer is the offline clusterer: per scope instance, one group per type,
// split into clusters of at most MaxClusterSize. Near-duplicates are packed into the same
// cluster so the planner sees them together, the closest first (similarComponents).
type StructuralClusterer struct {
	// Corpus holds the entries analysed and the store's vocabulary the near-duplicate guards
	// weigh words by; nil analyses each group of one type apart, weighing words among it.
	Corpus *Corpus
}

// Name is "structural".
func (StructuralClusterer) Name() string { return "structural" }

// Groups splits entries (of one scope instance) into structural clusters with their keys
// ("scope:type:hash", hash = first 8 hex of sha256 of the scope key).
func (s StructuralClusterer) Groups(ctx context.Context, inst ScopeInstance, entries []*memory.Memory, maxSize int) ([]Cluster, error) {
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
		corpus := s.Corpus
		if corpus == nil {
			corpus = NewCorpus(group)
		}
		texts := make([]*Text, len(group))
		for i, m := range group {
			texts[i] = corpus.Text(m)
		}
		comps, err := similarComponents(ctx, texts, maxSize)
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

// link is one near-duplicate match between entries i < j of a group.
type link struct {
	i, j  int
	class int // linkClass
	score float64
}

// linkClass orders matches by how much a merge of them can be trusted: lossless (exact or
// contained, 0), trusted fuzzy (1), guarded (2).
func linkClass(m Match) int {
	switch {
	case m.Guarded:
		return 2
	case m.Tier == TierExact || m.Tier == TierContainment:
		return 0
	}
	return 1
}

// similarComponents joins texts along their near-duplicate links into components of at most
// size texts, returned as index lists in order of their first member. Links are taken
// strongest first — every lossless one, then every trusted fuzzy one, then every guarded one,
// each class by score — and a link joins two components only when the result still fits in one
// cluster. Joining every link regardless made one component of every memory a chain of loose
// matches reached ("the user prefers postgres …", "… redis …", "… kafka …"), which pack then
// cut in creation order, parting true duplicates; now a pair is parted only when one of them
// already sits in a full cluster of closer matches.
func similarComponents(ctx context.Context, texts []*Text, size int) ([][]int, error) {
	links, err := nearLinks(ctx, texts)
	if err != nil {
		return nil, err
	}
	return joinLinks(links, len(texts), size), nil
}

// nearLinks compares the candidate pairs of texts (nearPairs) and returns their links,
// strongest first.
func nearLinks(ctx context.Context, texts []*Text) ([]link, error) {
	var links []link
	err := nearPairs(ctx, texts, func(i, j int) {
		if m := compare(texts[i], texts[j]); m.Tier != TierNone {
			links = append(links, link{i: i, j: j, class: linkClass(m), score: m.Score})
		}
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(links, func(a, b int) bool {
		x, y := links[a], links[b]
		switch {
		case x.class != y.class:
			return x.class < y.class
		case x.score != y.score:
			return x.score > y.score
		case x.i != y.i:
			return x.i < y.i
		}
		return x.j < y.j
	})
	return links, nil
}

// joinLinks joins n entries along links, strongest first, into components of at most size.
func joinLinks(links []link, n, size int) [][]int {
	parent := make([]int, n)
	count := make([]int, n)
	for i := range parent {
		parent[i], count[i] = i, 1
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for _, l := range links {
		ri, rj := find(l.i), find(l.j)
		if ri == rj || count[ri]+count[rj] > size {
			continue
		}
		if rj < ri {
			ri, rj = rj, ri
		}
		parent[rj] = ri
		count[ri] += count[rj]
	}
	byRoot := map[int]int{}
	var comps [][]int
	for i := range n {
		r := find(i)
		k, ok := byRoot[r]
		if !ok {
			k = len(comps)
			byRoot[r] = k
			comps = append(comps, nil)
		}
		comps[k] = append(comps[k], i)
	}
	return comps
}

// pack puts components, none larger than size (joinLinks), into bins of at most size, each
// whole: first fit, largest first.
func pack(comps [][]int, size int) [][]int {
	order := make([]int, len(comps))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return len(comps[order[a]]) > len(comps[order[b]]) })
	var bins [][]int
	for _, ci := range order {
		c := comps[ci]
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
