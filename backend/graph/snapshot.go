// Package graph answers knowledge-graph questions (entities, neighbours, shortest paths,
// subgraphs) over the graph rows the store keeps in step with the memory files, and turns a
// person's graph edits into memory body rewrites. Every answer is bounded by a View: the
// scope instances its caller may see. Entities are never merged across scope instances.
package graph

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"engram/backend/memory"
	"engram/backend/text/wikilink"
)

// Store is what graph uses: the store's graph rows and their generation, and (for a person's
// edits, which are rewrites of memory bodies) reading and updating memories.
type Store interface {
	GraphGen(ctx context.Context) (int64, error)
	GraphData(ctx context.Context) (*memory.GraphData, error)
	Get(ctx context.Context, id string) (*memory.Memory, error)
	ApplyBatch(ctx context.Context, b memory.Batch) (memory.BatchResult, error)
}

// aliasTypes are relation types that say two names are one entity: they merge, not link.
var aliasTypes = map[string]bool{"alias": true, "aka": true, "also_known_as": true, "same_as": true, "别名": true, "又名": true, "也叫": true}

// IsAlias reports whether a relation type declares an alias.
func IsAlias(rel string) bool { return aliasTypes[rel] }

// node is one resolved entity: stored entities merged by alias lines (same scope instance).
type node struct {
	id       string
	name     string
	kind     string
	aliases  []string
	norms    map[string]bool // every name and alias, normalised
	scope    memory.Scope
	key      string
	workdir  string
	memories []int64 // rids, sorted
	edges    []int   // indexes into snapshot.edges
	members  []int64 // stored entity ids
	linked   []int64 // rids of the memories whose slug or title the node's names are (sorted)
}

// edge is one typed relation between two nodes, with every memory that states it.
type edge struct {
	id       string
	src, dst int // node indexes
	typ      string
	memories []int64
	rows     []int64 // stored relation ids
}

// snapshot is the resolved graph at one store generation.
type snapshot struct {
	gen      int64
	nodes    []*node
	byID     map[string]int
	edges    []*edge
	edgeByID map[string]int
	memories map[int64]memory.GraphMemoryRow
	// links answers which memory a [[name]] names, by the reader's rule (memory.LinkIndex).
	links *memory.LinkIndex
}

// Service caches the resolved graph and answers queries on it.
type Service struct {
	store Store
	mu    sync.Mutex
	snap  *snapshot
}

// New returns a graph service over store.
func New(store Store) *Service { return &Service{store: store} }

// current returns the snapshot for the store's present generation, rebuilding it when any
// process changed the graph since the last call.
func (s *Service) current(ctx context.Context) (*snapshot, error) {
	gen, err := s.store.GraphGen(ctx)
	if err != nil {
		return nil, fmt.Errorf("graph: unable to read the graph: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.snap != nil && s.snap.gen == gen {
		return s.snap, nil
	}
	d, err := s.store.GraphData(ctx)
	if err != nil {
		return nil, fmt.Errorf("graph: unable to read the graph: %w", err)
	}
	s.snap = build(d)
	return s.snap, nil
}

// EntityID is the stable id of the entity named norm (a wikilink.Norm key) in one scope
// instance (scope, and the project key or agent name): the same files give the same ids after
// any rebuild of the index, so the Graph view, bookmarks and MCP clients holding one keep
// finding it. Row ids are not used: they follow the order files happen to be indexed in.
func EntityID(scope memory.Scope, key, norm string) string {
	return "e" + digest(string(scope), key, norm)
}

// EdgeID is the stable id of the relation of type typ from entity src to entity dst (ids).
func EdgeID(src, typ, dst string) string { return "r" + digest(src, typ, dst) }

// digest is 64 bits of SHA-256 over parts joined by NUL (no part holds one), in hex.
func digest(parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:8])
}

// build resolves stored rows into nodes and edges. Rows are taken in the order of their stable
// ids, not their row ids, so alias unions, node order and edge order (and so ids, names, ties
// and equal-length paths) are the same after a rebuild of the index.
func build(d *memory.GraphData) *snapshot {
	sn := &snapshot{gen: d.Gen, byID: map[string]int{}, edgeByID: map[string]int{}, memories: make(map[int64]memory.GraphMemoryRow, len(d.Memories))}
	for _, m := range d.Memories {
		sn.memories[m.RID] = m
	}
	if sn.links = d.LinkIndex; sn.links == nil {
		sn.links = memory.NewLinkIndex(d.Memories)
	}
	uid := make(map[int64]string, len(d.Entities))
	ents := append([]memory.GraphEntityRow(nil), d.Entities...)
	for _, e := range ents {
		uid[e.ID] = EntityID(e.Scope, e.ScopeKey, e.Norm)
	}
	sort.Slice(ents, func(a, b int) bool { return uid[ents[a].ID] < uid[ents[b].ID] })
	// Relations sort by their ends' places in that order (ints, not the ids' strings: this
	// sort dominated the rebuild every query pays after a change), then type, then the id of
	// the memory stating them.
	rank := make(map[int64]int, len(ents))
	for i, e := range ents {
		rank[e.ID] = i
	}
	place := func(id int64) int {
		if i, ok := rank[id]; ok {
			return i
		}
		return -1
	}
	type relKey struct {
		src, dst int
		typ, mem string
		row      memory.GraphRelationRow
	}
	keyed := make([]relKey, len(d.Relations))
	for i, r := range d.Relations {
		keyed[i] = relKey{place(r.Src), place(r.Dst), r.Type, sn.memories[r.MemoryRID].ID, r}
	}
	sort.Slice(keyed, func(a, b int) bool {
		x, y := &keyed[a], &keyed[b]
		if x.src != y.src {
			return x.src < y.src
		}
		if x.dst != y.dst {
			return x.dst < y.dst
		}
		if x.typ != y.typ {
			return x.typ < y.typ
		}
		return x.mem < y.mem
	})
	rels := make([]memory.GraphRelationRow, len(keyed))
	for i := range keyed {
		rels[i] = keyed[i].row
	}
	d = &memory.GraphData{Gen: d.Gen, Entities: ents, Mentions: d.Mentions, Relations: rels, Memories: d.Memories, Links: d.Links, LinkIndex: d.LinkIndex}
	// Union the entities alias lines join (both ends are always in one scope instance).
	parent := make(map[int64]int64, len(d.Entities))
	for _, e := range d.Entities {
		parent[e.ID] = e.ID
	}
	var find func(int64) int64
	find = func(x int64) int64 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for _, r := range d.Relations {
		if aliasTypes[r.Type] {
			a, b := find(r.Src), find(r.Dst)
			if a != b {
				parent[b] = a
			}
		}
	}
	entity := make(map[int64]memory.GraphEntityRow, len(d.Entities))
	idx := map[int64]int{} // root entity id → node index
	for _, e := range d.Entities {
		entity[e.ID] = e
	}
	for _, e := range d.Entities {
		root := find(e.ID)
		i, ok := idx[root]
		if !ok {
			r := entity[root]
			i = len(sn.nodes)
			idx[root] = i
			sn.nodes = append(sn.nodes, &node{id: uid[root], scope: r.Scope, key: r.ScopeKey,
				workdir: r.Workdir, norms: map[string]bool{}})
		}
		n := sn.nodes[i]
		n.members = append(n.members, e.ID)
		n.norms[e.Norm] = true
	}
	spell := make([]map[string]int, len(sn.nodes))
	rootSpell := make([]map[string]int, len(sn.nodes))
	kinds := make([]map[string]int, len(sn.nodes))
	mems := make([]map[int64]bool, len(sn.nodes))
	for i := range sn.nodes {
		spell[i], rootSpell[i], kinds[i], mems[i] = map[string]int{}, map[string]int{}, map[string]int{}, map[int64]bool{}
	}
	for _, m := range d.Mentions {
		i, ok := idx[find(m.Entity)]
		if !ok {
			continue
		}
		spell[i][m.Spelling]++
		if find(m.Entity) == m.Entity {
			rootSpell[i][m.Spelling]++
		}
		// A mention's labels, one per line, are names of the entity too (its aliases).
		for _, l := range strings.Split(m.Label, "\n") {
			if l != "" {
				spell[i][l] += 0
			}
		}
		if m.Kind != "" {
			kinds[i][m.Kind]++
		}
		mems[i][m.MemoryRID] = true
	}
	for _, l := range d.Links {
		if i, ok := idx[find(l.Entity)]; ok {
			mems[i][l.MemoryRID] = true
			kinds[i]["memory"] += 0
			if !slices.Contains(sn.nodes[i].linked, l.MemoryRID) {
				sn.nodes[i].linked = append(sn.nodes[i].linked, l.MemoryRID)
				slices.Sort(sn.nodes[i].linked)
			}
		}
	}
	for i, n := range sn.nodes {
		// The root's most common spelling names the node (an alias line's first name wins).
		src := rootSpell[i]
		if len(src) == 0 {
			src = spell[i]
		}
		n.name = most(src)
		if n.name == "" {
			n.name = entity[n.members[0]].Name
		}
		for sp := range spell[i] {
			if sp != n.name && sp != "" {
				n.aliases = append(n.aliases, sp)
				n.norms[wikilink.Norm(sp)] = true
			}
		}
		sort.Strings(n.aliases)
		n.kind = most(kinds[i])
		if n.kind == "" {
			n.kind = memory.KindConcept
		}
		for rid := range mems[i] {
			if _, live := sn.memories[rid]; live {
				n.memories = append(n.memories, rid)
			}
		}
		sort.Slice(n.memories, func(a, b int) bool { return n.memories[a] < n.memories[b] })
		sn.byID[n.id] = i
	}
	type ekey struct {
		src, dst int
		typ      string
	}
	eidx := map[ekey]int{}
	for _, r := range d.Relations {
		if aliasTypes[r.Type] {
			continue
		}
		a, okA := idx[find(r.Src)]
		b, okB := idx[find(r.Dst)]
		if !okA || !okB || a == b {
			continue
		}
		k := ekey{a, b, r.Type}
		i, ok := eidx[k]
		if !ok {
			i = len(sn.edges)
			eidx[k] = i
			sn.edges = append(sn.edges, &edge{id: EdgeID(sn.nodes[a].id, r.Type, sn.nodes[b].id), src: a, dst: b, typ: r.Type})
			sn.edgeByID[sn.edges[i].id] = i
			sn.nodes[a].edges = append(sn.nodes[a].edges, i)
			sn.nodes[b].edges = append(sn.nodes[b].edges, i)
		}
		e := sn.edges[i]
		e.rows = append(e.rows, r.ID)
		if _, live := sn.memories[r.MemoryRID]; live {
			e.memories = append(e.memories, r.MemoryRID)
		}
	}
	// A member's own id finds its node too: an entity later declared an alias of another keeps
	// answering to the id a caller held.
	for _, n := range sn.nodes {
		for _, m := range n.members {
			if _, taken := sn.byID[uid[m]]; !taken {
				sn.byID[uid[m]] = sn.byID[n.id]
			}
		}
	}
	for _, e := range sn.edges {
		sort.Slice(e.memories, func(a, b int) bool { return e.memories[a] < e.memories[b] })
		out := e.memories[:0]
		for i, m := range e.memories {
			if i == 0 || m != e.memories[i-1] {
				out = append(out, m)
			}
		}
		e.memories = out
	}
	return sn
}

// most is the key with the highest count; ties go to the smallest key ("" when empty).
func most(c map[string]int) string {
	best, n := "", -1
	for k, v := range c {
		if v > n || (v == n && k < best) {
			best, n = k, v
		}
	}
	return best
}
