package graph

import (
	"context"
	"sort"
	"strings"

	"engram/backend/text/wikilink"
)

// ErrCode values of graph's coded errors.
const (
	CodeEntityNotFound  = "graph_entity_not_found"
	CodeEdgeNotFound    = "graph_edge_not_found"
	CodeInvalidName     = "graph_invalid_name"
	CodeInvalidRelation = "graph_invalid_relation"
	CodePersonOnly      = "graph_person_only"
	CodeNothingToChange = "graph_nothing_to_change"
	CodeWouldEmpty      = "graph_would_empty_memory"
	CodeNameTaken       = "graph_name_taken"
	CodeSelfRelation    = "graph_self_relation"
	CodeNamesMemory     = "graph_names_memory"
	CodeNameIsMemory    = "graph_name_is_memory"
)

// Error is a graph failure with a stable code and the arguments of its translated message.
type Error struct {
	Code string
	Args map[string]any
	Msg  string
}

func (e *Error) Error() string             { return "graph: " + e.Msg }
func (e *Error) ErrorCode() string         { return e.Code }
func (e *Error) ErrorArgs() map[string]any { return e.Args }

func notFound(ref string) *Error {
	return &Error{Code: CodeEntityNotFound, Args: map[string]any{"Entity": ref}, Msg: "no entity " + ref + " is visible here"}
}

// walkFilter holds a Filter as sets, folded the way stored values are.
type walkFilter struct{ rels, kinds map[string]bool }

func (f Filter) compile() walkFilter {
	return walkFilter{rels: set(f.RelationTypes, wikilink.RelationType), kinds: set(f.EntityTypes, strings.ToLower)}
}

func (w walkFilter) edgeOK(e *edge) bool { return w.rels == nil || w.rels[e.typ] }
func (w walkFilter) nodeOK(n *node) bool { return w.kinds == nil || w.kinds[n.kind] }

// Neighbors is the subgraph within depth hops of ref (1..MaxDepth), following edges either
// way, at most limit nodes (nearest first, then busiest).
func (s *Service) Neighbors(ctx context.Context, v View, ref string, depth int, f Filter, limit int) (Subgraph, error) {
	sn, err := s.current(ctx)
	if err != nil {
		return Subgraph{}, err
	}
	start, ok := sn.resolve(ref, v)
	if !ok {
		return Subgraph{}, notFound(ref)
	}
	depth = clamp(depth, 1, MaxDepth)
	return sn.around(start, depth, f.compile(), v, clamp(limit, DefaultLimit, MaxLimit)), nil
}

// Subgraph is Neighbors of ref to depth (default 2), or with ref empty the whole visible
// graph, busiest nodes first, cut at limit.
func (s *Service) Subgraph(ctx context.Context, v View, ref string, depth int, f Filter, limit int) (Subgraph, error) {
	if strings.TrimSpace(ref) != "" {
		return s.Neighbors(ctx, v, ref, clamp(depth, 2, MaxDepth), f, limit)
	}
	sn, err := s.current(ctx)
	if err != nil {
		return Subgraph{}, err
	}
	w, limit := f.compile(), clamp(limit, DefaultLimit, MaxLimit)
	var pick []int
	for i, n := range sn.nodes {
		if sn.visible(i, v) && w.nodeOK(n) {
			pick = append(pick, i)
		}
	}
	sort.SliceStable(pick, func(a, b int) bool {
		da, db := len(sn.nodes[pick[a]].edges), len(sn.nodes[pick[b]].edges)
		if da != db {
			return da > db
		}
		return sn.nodes[pick[a]].name < sn.nodes[pick[b]].name
	})
	truncated := len(pick) > limit
	if truncated {
		pick = pick[:limit]
	}
	return sn.induced(pick, w, v, truncated), nil
}

// around is the breadth-first ball of radius depth around start.
func (sn *snapshot) around(start, depth int, w walkFilter, v View, limit int) Subgraph {
	dist := map[int]int{start: 0}
	order := []int{start}
	truncated := false
	frontier := []int{start}
	for d := 1; d <= depth && len(frontier) > 0; d++ {
		var next []int
		for _, i := range frontier {
			sn.eachStep(i, w, func(j, _ int) bool {
				if _, seen := dist[j]; !seen && sn.visible(j, v) && w.nodeOK(sn.nodes[j]) {
					dist[j] = d
					next = append(next, j)
				}
				return true
			})
		}
		// Within one ring the busiest nodes are kept first when the limit cuts it.
		sort.SliceStable(next, func(a, b int) bool { return len(sn.nodes[next[a]].edges) > len(sn.nodes[next[b]].edges) })
		for _, j := range next {
			if len(order) >= limit {
				truncated = true
				break
			}
			order = append(order, j)
		}
		if truncated {
			break
		}
		frontier = next
	}
	return sn.induced(order, w, v, truncated)
}

// eachStep calls fn with the far end of every edge of node i that w allows, and the edge, in
// the node's edge order, until fn returns false: the one step both the ball around an entity and
// the path search take.
func (sn *snapshot) eachStep(i int, w walkFilter, fn func(j, ei int) bool) {
	for _, ei := range sn.nodes[i].edges {
		e := sn.edges[ei]
		if !w.edgeOK(e) {
			continue
		}
		j := e.dst
		if j == i {
			j = e.src
		}
		if !fn(j, ei) {
			return
		}
	}
}

// induced is the nodes picked and every allowed edge between two of them.
func (sn *snapshot) induced(pick []int, w walkFilter, v View, truncated bool) Subgraph {
	in := make(map[int]bool, len(pick))
	out := Subgraph{Nodes: make([]Entity, 0, len(pick)), Edges: []Edge{}, Truncated: truncated}
	for _, i := range pick {
		in[i] = true
		out.Nodes = append(out.Nodes, sn.entity(i))
	}
	seen := map[int]bool{}
	for _, i := range pick {
		for _, ei := range sn.nodes[i].edges {
			e := sn.edges[ei]
			if seen[ei] || !in[e.src] || !in[e.dst] || !w.edgeOK(e) {
				continue
			}
			seen[ei] = true
			out.Edges = append(out.Edges, sn.edgeOut(ei, v))
		}
	}
	sort.Slice(out.Edges, func(a, b int) bool { return out.Edges[a].ID < out.Edges[b].ID })
	return out
}

// Path is a shortest path (fewest hops, edges followed either way) from one entity to another
// within maxHops (1..MaxHops, default DefaultHops); each hop carries the memories behind it.
func (s *Service) Path(ctx context.Context, v View, from, to string, maxHops int, f Filter) (Path, error) {
	sn, err := s.current(ctx)
	if err != nil {
		return Path{}, err
	}
	as, bs := sn.candidates(from, v), sn.candidates(to, v)
	if len(as) == 0 {
		return Path{}, notFound(from)
	}
	if len(bs) == 0 {
		return Path{}, notFound(to)
	}
	maxHops = clamp(maxHops, DefaultHops, MaxHops)
	w := f.compile()
	// Relations never cross scope instances, so a path joins two entities of one instance: a
	// name both ends answer to in several (global Alice, a project's Alice) is tried in each,
	// best first, instead of only the best of each end, which could lie in two instances.
	for _, a := range as {
		for _, b := range bs {
			if na, nb := sn.nodes[a], sn.nodes[b]; na.scope != nb.scope || na.key != nb.key {
				continue
			}
			if p := sn.path(a, b, maxHops, w, v); p.Found {
				return p, nil
			}
		}
	}
	out := Path{Found: false, Nodes: []Entity{}, Hops: []Hop{}}
	for _, a := range as {
		for _, b := range bs {
			if na, nb := sn.nodes[a], sn.nodes[b]; na.scope == nb.scope && na.key == nb.key {
				if d := sn.distance(a, b, w, v); d > 0 && (out.Longer == 0 || d < out.Longer) {
					out.Longer = d
				}
			}
		}
	}
	return out, nil
}

// distance is the number of hops from node a to node b however many it takes, -1 when nothing
// joins them: what a path search that found nothing within its hops tells its caller.
func (sn *snapshot) distance(a, b int, w walkFilter, v View) int {
	dist := map[int]int{a: 0}
	frontier := []int{a}
	for len(frontier) > 0 {
		var next []int
		for _, i := range frontier {
			reached := false
			sn.eachStep(i, w, func(j, _ int) bool {
				if _, seen := dist[j]; seen || !sn.visible(j, v) {
					return true
				}
				dist[j] = dist[i] + 1
				if j == b {
					reached = true
					return false
				}
				next = append(next, j)
				return true
			})
			if reached {
				return dist[b]
			}
		}
		frontier = next
	}
	return -1
}

// path is the shortest path from node a to node b within maxHops, Found false when none.
func (sn *snapshot) path(a, b, maxHops int, w walkFilter, v View) Path {
	if a == b {
		return Path{Found: true, Nodes: []Entity{sn.entity(a)}, Hops: []Hop{}}
	}
	// Breadth-first from a; prev records the node and edge each node was reached by.
	type step struct{ node, edge int }
	prev := map[int]step{a: {-1, -1}}
	frontier := []int{a}
	for d := 0; d < maxHops && len(frontier) > 0; d++ {
		var next []int
		for _, i := range frontier {
			// Edges in a fixed order (by id) so equal-length paths are chosen the same way each time.
			found := false
			sn.eachStep(i, w, func(j, ei int) bool {
				if _, seen := prev[j]; seen || !sn.visible(j, v) {
					return true
				}
				prev[j] = step{i, ei}
				if j == b {
					found = true
					return false
				}
				next = append(next, j)
				return true
			})
			if found {
				return sn.pathTo(b, func(n int) (int, int) { p := prev[n]; return p.node, p.edge }, v)
			}
		}
		frontier = next
	}
	return Path{Found: false, Nodes: []Entity{}, Hops: []Hop{}}
}

func (sn *snapshot) pathTo(b int, back func(int) (int, int), v View) Path {
	var nodes []int
	var edges []int
	for n := b; n >= 0; {
		nodes = append(nodes, n)
		p, e := back(n)
		if e >= 0 {
			edges = append(edges, e)
		}
		n = p
	}
	out := Path{Found: true}
	for i := len(nodes) - 1; i >= 0; i-- {
		out.Nodes = append(out.Nodes, sn.entity(nodes[i]))
	}
	for k := len(edges) - 1; k >= 0; k-- {
		i := len(edges) - 1 - k
		out.Hops = append(out.Hops, Hop{From: sn.nodes[nodes[len(nodes)-1-i]].id, To: sn.nodes[nodes[len(nodes)-2-i]].id,
			Edge: sn.edgeOut(edges[k], v)})
	}
	return out
}

// EntityMemories lists the memories that mention ref (or that its name links to).
func (s *Service) EntityMemories(ctx context.Context, v View, ref string) ([]MemoryRef, error) {
	sn, err := s.current(ctx)
	if err != nil {
		return nil, err
	}
	i, ok := sn.resolve(ref, v)
	if !ok {
		return nil, notFound(ref)
	}
	return sn.refs(sn.nodes[i].memories, v), nil
}
