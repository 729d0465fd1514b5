package graph

import (
	"context"
	"sort"
	"strings"

	"engram/backend/memory"
	"engram/backend/text/wikilink"
)

// Instance is one scope instance: global (key ""), a project (its key) or an agent (its name).
type Instance struct {
	Scope memory.Scope
	Key   string
}

// View is what a caller sees: every instance (All, a person browsing) or the listed ones (a
// model's visibility, or a person narrowing to one scope).
type View struct {
	All       bool
	Instances []Instance
}

func (v View) allows(scope memory.Scope, key string) bool {
	if v.All {
		return true
	}
	for _, in := range v.Instances {
		if in.Scope == scope && in.Key == key {
			return true
		}
	}
	return false
}

// MemoryRef names a memory behind a node or an edge.
type MemoryRef struct {
	ID    string       `json:"id"`
	Slug  string       `json:"slug"`
	Title string       `json:"title"`
	Scope memory.Scope `json:"scope"`
}

// Entity is a node as callers see it.
type Entity struct {
	ID       string       `json:"id"`
	Name     string       `json:"name"`
	Type     string       `json:"type"`
	Aliases  []string     `json:"aliases"`
	Scope    memory.Scope `json:"scope"`
	Workdir  string       `json:"workdir,omitempty"`
	Agent    string       `json:"agent,omitempty"`
	Memories int          `json:"memories"`
	Degree   int          `json:"degree"`
}

// Edge is a typed relation with the memories that state it.
type Edge struct {
	ID       string      `json:"id"`
	Source   string      `json:"source"`
	Target   string      `json:"target"`
	Type     string      `json:"type"`
	Memories []MemoryRef `json:"memories"`
}

// Subgraph is a set of nodes and the edges between them; Truncated says a limit cut it.
type Subgraph struct {
	Nodes     []Entity `json:"nodes"`
	Edges     []Edge   `json:"edges"`
	Truncated bool     `json:"truncated"`
}

// Hop is one step of a path, with the edge (and so the memories) that justifies it.
type Hop struct {
	From string `json:"from"`
	To   string `json:"to"`
	Edge Edge   `json:"edge"`
}

// Path is the answer of a shortest-path query. When none is found within the hops asked for,
// Longer is the number of hops of the shortest path there is (over the same relation types), 0
// when nothing joins the two: "no path" read the same for both, and a person could not tell
// two entities five hops apart from two that nothing connects.
type Path struct {
	Found  bool     `json:"found"`
	Nodes  []Entity `json:"nodes"`
	Hops   []Hop    `json:"hops"`
	Longer int      `json:"longer,omitempty"`
}

// Filter narrows a traversal: relation types it may follow and entity types it may reach
// (empty: any). The start node is always included.
type Filter struct {
	RelationTypes []string
	EntityTypes   []string
}

// Limits on answers: a caller may ask for less, never more.
const (
	DefaultLimit   = 200
	MaxLimit       = 5000
	MaxDepth       = 3
	DefaultHops    = 4
	MaxHops        = 6
	DefaultEntites = 50
)

func set(xs []string, fold func(string) string) map[string]bool {
	if len(xs) == 0 {
		return nil
	}
	m := map[string]bool{}
	for _, x := range xs {
		m[fold(x)] = true
	}
	return m
}

func (sn *snapshot) entity(i int) Entity {
	n := sn.nodes[i]
	e := Entity{ID: n.id, Name: n.name, Type: n.kind, Aliases: append([]string{}, n.aliases...), Scope: n.scope,
		Memories: len(n.memories), Degree: len(n.edges)}
	switch n.scope {
	case memory.ScopeProject:
		e.Workdir = n.workdir
	case memory.ScopeAgent:
		e.Agent = n.key
	}
	return e
}

func (sn *snapshot) refs(rids []int64, v View) []MemoryRef {
	out := make([]MemoryRef, 0, len(rids))
	for _, rid := range rids {
		if m, ok := sn.memories[rid]; ok && v.allows(m.Scope, m.ScopeKey) {
			out = append(out, MemoryRef{ID: m.ID, Slug: m.Slug, Title: m.Title, Scope: m.Scope})
		}
	}
	return out
}

func (sn *snapshot) edgeOut(i int, v View) Edge {
	e := sn.edges[i]
	return Edge{ID: e.id, Source: sn.nodes[e.src].id, Target: sn.nodes[e.dst].id, Type: e.typ, Memories: sn.refs(e.memories, v)}
}

func (sn *snapshot) visible(i int, v View) bool {
	n := sn.nodes[i]
	return v.allows(n.scope, n.key)
}

// resolve finds the node ref names: a node id, else a name or alias (normalised) among the
// visible nodes — see candidates for which is preferred.
func (sn *snapshot) resolve(ref string, v View) (int, bool) {
	c := sn.candidates(ref, v)
	if len(c) == 0 {
		return 0, false
	}
	return c[0], true
}

// candidates lists the visible nodes ref names, best first: the node of that id alone, else
// every node answering to the name — for a model's view its project first, then its agent,
// then global; for a person's view of everything (which names no project) global first, then
// projects and agents (a project's entity of the same name took the place of the global one,
// so "engram graph path Alice Berlin" walked from some project's Alice); ties to the busiest.
func (sn *snapshot) candidates(ref string, v View) []int {
	ref = strings.TrimSpace(ref)
	if i, ok := sn.byID[ref]; ok && sn.visible(i, v) {
		return []int{i}
	}
	key := wikilink.Norm(ref)
	if key == "" {
		return nil
	}
	rank := map[memory.Scope]int{memory.ScopeProject: 0, memory.ScopeAgent: 1, memory.ScopeGlobal: 2}
	if v.All {
		rank = map[memory.Scope]int{memory.ScopeGlobal: 0, memory.ScopeProject: 1, memory.ScopeAgent: 2}
	}
	var out []int
	for i, n := range sn.nodes {
		if n.norms[key] && sn.visible(i, v) {
			out = append(out, i)
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		x, y := sn.nodes[out[a]], sn.nodes[out[b]]
		if rank[x.scope] != rank[y.scope] {
			return rank[x.scope] < rank[y.scope]
		}
		return len(x.edges) > len(y.edges)
	})
	return out
}

// Entities lists visible entities whose name or alias contains query (normalised), exact
// names first, then by degree; types narrows by entity type.
func (s *Service) Entities(ctx context.Context, v View, query string, types []string, limit int) ([]Entity, error) {
	es, _, err := s.FindEntities(ctx, v, query, types, limit)
	return es, err
}

// FindEntities is Entities that also says whether limit left matching entities out, so a
// caller can say the list is not all (the CLI printed the first 50 of 5,000 as if they were all).
func (s *Service) FindEntities(ctx context.Context, v View, query string, types []string, limit int) ([]Entity, bool, error) {
	sn, err := s.current(ctx)
	if err != nil {
		return nil, false, err
	}
	limit = clamp(limit, DefaultEntites, MaxLimit)
	want := set(types, strings.ToLower)
	q := wikilink.Norm(query)
	if strings.TrimSpace(query) == "" {
		q = ""
	}
	type hit struct{ i, rank int }
	var hits []hit
	for i, n := range sn.nodes {
		if !sn.visible(i, v) || (want != nil && !want[n.kind]) {
			continue
		}
		rank := 3
		if q == "" {
			rank = 2
		} else {
			for k := range n.norms {
				switch {
				case k == q:
					rank = min(rank, 0)
				case strings.HasPrefix(k, q):
					rank = min(rank, 1)
				case strings.Contains(k, q):
					rank = min(rank, 2)
				}
			}
		}
		if rank < 3 {
			hits = append(hits, hit{i, rank})
		}
	}
	sort.Slice(hits, func(a, b int) bool {
		x, y := hits[a], hits[b]
		if x.rank != y.rank {
			return x.rank < y.rank
		}
		if dx, dy := len(sn.nodes[x.i].edges), len(sn.nodes[y.i].edges); dx != dy {
			return dx > dy
		}
		return sn.nodes[x.i].name < sn.nodes[y.i].name
	})
	out := make([]Entity, 0, min(len(hits), limit))
	for _, h := range hits[:min(len(hits), limit)] {
		out = append(out, sn.entity(h.i))
	}
	return out, len(hits) > limit, nil
}

func clamp(n, def, hi int) int {
	if n <= 0 {
		return def
	}
	return min(n, hi)
}
