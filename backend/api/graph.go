package api

import (
	"slices"
	"strconv"
	"strings"

	"engram/backend/graph"
	"engram/backend/memory"
	"engram/backend/recall"
	"engram/backend/text/wikilink"
)

// EntityNameKey is a name as the graph compares entity names and aliases (case, width and
// punctuation folded), for a transport that tells a model when a name matches more than one
// entity.
func EntityNameKey(name string) string { return wikilink.Norm(name) }

// GraphService answers knowledge-graph questions and applies a person's graph edits (which
// rewrite memory bodies through apply_batch). A person (the desktop window, the CLI, the
// bridge) sees every scope unless the params narrow it; a model-facing caller (MCP) sees what
// recall.Visibility lets it see — global, its project, its agent — and may only narrow that.
type GraphService struct{ a *API }

// GraphScope are the scope arguments every graph method takes.
type GraphScope struct {
	Scope   memory.Scope `json:"scope,omitempty"`
	Workdir string       `json:"workdir,omitempty"`
	Agent   string       `json:"agent,omitempty"`
}

// GraphEntitiesParams search entities by name or alias.
type GraphEntitiesParams struct {
	GraphScope
	Query string   `json:"query,omitempty"`
	Types []string `json:"types,omitempty"`
	Limit int      `json:"limit,omitempty"`
}

// GraphEntitiesResult lists entities, best match first; Truncated says the limit left
// matching entities out.
type GraphEntitiesResult struct {
	Entities  []graph.Entity `json:"entities"`
	Truncated bool           `json:"truncated"`
}

// GraphNeighborsParams ask for an entity's neighbourhood.
type GraphNeighborsParams struct {
	GraphScope
	Entity        string   `json:"entity"`
	Depth         int      `json:"depth,omitempty"`
	RelationTypes []string `json:"relation_types,omitempty"`
	EntityTypes   []string `json:"entity_types,omitempty"`
	Limit         int      `json:"limit,omitempty"`
}

// GraphSubgraphParams ask for a subgraph around an entity, or (entity empty) the whole graph.
type GraphSubgraphParams struct {
	GraphScope
	Entity        string   `json:"entity,omitempty"`
	Depth         int      `json:"depth,omitempty"`
	Limit         int      `json:"limit,omitempty"`
	RelationTypes []string `json:"relation_types,omitempty"`
	EntityTypes   []string `json:"entity_types,omitempty"`
}

// GraphPathParams ask for a shortest path between two entities.
type GraphPathParams struct {
	GraphScope
	From          string   `json:"from"`
	To            string   `json:"to"`
	MaxHops       int      `json:"max_hops,omitempty"`
	RelationTypes []string `json:"relation_types,omitempty"`
}

// GraphEntityParams name one entity (id or name).
type GraphEntityParams struct {
	GraphScope
	Entity string `json:"entity"`
}

// GraphMemoriesResult lists memories behind an entity.
type GraphMemoriesResult struct {
	Memories []graph.MemoryRef `json:"memories"`
}

// GraphRenameParams rename an entity in every memory that mentions it.
type GraphRenameParams struct {
	GraphScope
	Entity string `json:"entity"`
	Name   string `json:"name"`
}

// GraphMergeParams fold entities into one.
type GraphMergeParams struct {
	GraphScope
	Into string   `json:"into"`
	From []string `json:"from"`
}

// EntityTypes are the kinds an entity of the graph has (person, organization, …): a filter by
// any other type matches nothing, so a transport may refuse it in words.
func EntityTypes() []string { return slices.Clone(memory.EntityKinds) }

// GraphAddRelationParams add a relation line to one memory. Memory names it as every verb on
// one memory does: its id, else its slug in the scope instance the scope fields name (global
// without a scope). MemoryID is the field's older name, still accepted (the desktop's graph
// edit sends the id there); when both are sent they must name the same reference.
type GraphAddRelationParams struct {
	GraphScope
	Memory   string `json:"memory,omitempty"`
	MemoryID string `json:"memory_id,omitempty"`
	From     string `json:"from,omitempty"`
	Type     string `json:"type"`
	To       string `json:"to"`
}

// GraphDeleteRelationParams remove an edge from every memory stating it.
type GraphDeleteRelationParams struct {
	GraphScope
	EdgeID string `json:"edge_id"`
}

// GraphMaxLimit is the most entities one graph answer holds, whatever limit is asked for;
// GraphDefaultHops and GraphMaxHops are the hops a path walks without max_hops, and at most.
const (
	GraphMaxLimit    = graph.MaxLimit
	GraphDefaultHops = graph.DefaultHops
	GraphMaxHops     = graph.MaxHops
)

// GraphSubgraph is graph.Subgraph under the api's name (transports see only api).
type GraphSubgraph = graph.Subgraph

// GraphEditResult lists the memories an edit rewrote.
type GraphEditResult struct {
	Changed []graph.MemoryRef `json:"changed"`
}

// view is what this caller sees, narrowed by p.
func (s *GraphService) view(p GraphScope) (graph.View, error) {
	a := s.a
	// A scope no memory has was read as global for a person ("--scope bogus" listed the global
	// graph as if it were that scope's); every other verb refuses it.
	switch p.Scope {
	case "", memory.ScopeGlobal, memory.ScopeProject, memory.ScopeAgent:
	default:
		return graph.View{}, a.fail(&memory.Error{Code: memory.CodeInvalidScope, Args: map[string]any{"Scope": string(p.Scope)},
			Msg: "invalid scope " + strconv.Quote(string(p.Scope))})
	}
	if err := a.checkScope(p.Scope, p.Workdir, p.Agent); err != nil {
		return graph.View{}, err
	}
	if a.actor == ActorUser || a.actor == ActorBridge {
		if p.Scope == "" && strings.TrimSpace(p.Workdir) == "" && strings.TrimSpace(p.Agent) == "" {
			return graph.View{All: true}, nil
		}
		if p.Scope != "" {
			f := memory.Filter{Scope: p.Scope, Workdir: p.Workdir, Agent: p.Agent}
			return graph.View{Instances: []graph.Instance{instanceOf(f, a.deps.Store.Projects())}}, nil
		}
	}
	// Model-facing callers (and a person naming a workdir or agent without a scope) get the
	// one visibility function every model-facing path uses.
	vis, err := recall.NewVisibility(recall.Caller{Workdir: p.Workdir, Agent: p.Agent}, a.deps.Store.Projects())
	if err != nil {
		return graph.View{}, a.fail(err)
	}
	if vis, err = vis.Narrow(p.Scope, "", ""); err != nil {
		return graph.View{}, a.fail(err)
	}
	var v graph.View
	for _, sc := range vis.Scopes() {
		key := ""
		switch sc {
		case memory.ScopeProject:
			key = vis.ProjectKey()
		case memory.ScopeAgent:
			key = vis.Agent()
		}
		if vis.AllowsKey(sc, key) {
			v.Instances = append(v.Instances, graph.Instance{Scope: sc, Key: key})
		}
	}
	return v, nil
}

// instanceOf is the scope instance a checked filter names.
func instanceOf(f memory.Filter, ps *memory.Projects) graph.Instance {
	switch f.Scope {
	case memory.ScopeProject:
		key, err := ps.Key(f.Workdir)
		if err != nil {
			key = "" // checkScope refused such a workdir already; no instance has this key
		}
		return graph.Instance{Scope: f.Scope, Key: key}
	case memory.ScopeAgent:
		return graph.Instance{Scope: f.Scope, Key: strings.TrimSpace(f.Agent)}
	}
	return graph.Instance{Scope: memory.ScopeGlobal}
}

// Entities searches entities by name or alias (all of them, busiest first, without a query).
func (s *GraphService) Entities(p GraphEntitiesParams) (GraphEntitiesResult, error) {
	if err := s.a.Wait(); err != nil {
		return GraphEntitiesResult{}, err
	}
	v, err := s.view(p.GraphScope)
	if err != nil {
		return GraphEntitiesResult{}, err
	}
	es, truncated, err := s.a.deps.Graph.FindEntities(s.a.ctx, v, p.Query, p.Types, p.Limit)
	if es == nil {
		es = []graph.Entity{}
	}
	return GraphEntitiesResult{Entities: es, Truncated: truncated}, s.a.fail(err)
}

// Neighbors returns the subgraph within depth (1..3) hops of an entity.
func (s *GraphService) Neighbors(p GraphNeighborsParams) (graph.Subgraph, error) {
	if err := s.a.Wait(); err != nil {
		return graph.Subgraph{}, err
	}
	v, err := s.view(p.GraphScope)
	if err != nil {
		return graph.Subgraph{}, err
	}
	if err := s.checkDepth(p.Depth); err != nil {
		return graph.Subgraph{}, err
	}
	g, err := s.a.deps.Graph.Neighbors(s.a.ctx, v, p.Entity, p.Depth,
		graph.Filter{RelationTypes: p.RelationTypes, EntityTypes: p.EntityTypes}, p.Limit)
	return g, s.a.fail(err)
}

// Subgraph returns the subgraph around an entity, or the whole visible graph.
func (s *GraphService) Subgraph(p GraphSubgraphParams) (graph.Subgraph, error) {
	if err := s.a.Wait(); err != nil {
		return graph.Subgraph{}, err
	}
	v, err := s.view(p.GraphScope)
	if err != nil {
		return graph.Subgraph{}, err
	}
	if err := s.checkDepth(p.Depth); err != nil {
		return graph.Subgraph{}, err
	}
	g, err := s.a.deps.Graph.Subgraph(s.a.ctx, v, p.Entity, p.Depth,
		graph.Filter{RelationTypes: p.RelationTypes, EntityTypes: p.EntityTypes}, p.Limit)
	return g, s.a.fail(err)
}

// Path returns a shortest path between two entities, each hop with its memories.
func (s *GraphService) Path(p GraphPathParams) (graph.Path, error) {
	if err := s.a.Wait(); err != nil {
		return graph.Path{}, err
	}
	v, err := s.view(p.GraphScope)
	if err != nil {
		return graph.Path{}, err
	}
	if p.MaxHops < 0 || p.MaxHops > graph.MaxHops {
		return graph.Path{}, s.a.newError(CodeInvalidParams, map[string]any{"Method": "graph.path", "Detail": "max_hops is 1 to 6"})
	}
	res, err := s.a.deps.Graph.Path(s.a.ctx, v, p.From, p.To, p.MaxHops, graph.Filter{RelationTypes: p.RelationTypes})
	return res, s.a.fail(err)
}

// EntityMemories lists the memories that mention an entity.
func (s *GraphService) EntityMemories(p GraphEntityParams) (GraphMemoriesResult, error) {
	if err := s.a.Wait(); err != nil {
		return GraphMemoriesResult{}, err
	}
	v, err := s.view(p.GraphScope)
	if err != nil {
		return GraphMemoriesResult{}, err
	}
	ms, err := s.a.deps.Graph.EntityMemories(s.a.ctx, v, p.Entity)
	if ms == nil {
		ms = []graph.MemoryRef{}
	}
	return GraphMemoriesResult{Memories: ms}, s.a.fail(err)
}

func (s *GraphService) checkDepth(d int) error {
	if d < 0 || d > graph.MaxDepth {
		return s.a.newError(CodeInvalidParams, map[string]any{"Method": "graph", "Detail": "depth is 1 to 3"})
	}
	return nil
}

// edit runs a person's edit; models never edit the graph (they write memories instead).
func (s *GraphService) edit(p GraphScope, fn func(graph.View) ([]graph.MemoryRef, error)) (GraphEditResult, error) {
	if s.a.actor != ActorUser && s.a.actor != ActorBridge {
		return GraphEditResult{}, s.a.newError(graph.CodePersonOnly, nil)
	}
	v, err := s.view(p)
	if err != nil {
		return GraphEditResult{}, err
	}
	changed, err := fn(v)
	if changed == nil {
		changed = []graph.MemoryRef{}
	}
	return GraphEditResult{Changed: changed}, s.a.fail(err)
}

// RenameEntity renames an entity in every memory that mentions it.
func (s *GraphService) RenameEntity(p GraphRenameParams) (GraphEditResult, error) {
	if err := s.a.Wait(); err != nil {
		return GraphEditResult{}, err
	}
	return s.edit(p.GraphScope, func(v graph.View) ([]graph.MemoryRef, error) {
		return s.a.deps.Graph.Rename(s.a.ctx, v, s.a.actor, p.Entity, p.Name)
	})
}

// MergeEntities folds entities into one (same scope only).
func (s *GraphService) MergeEntities(p GraphMergeParams) (GraphEditResult, error) {
	if err := s.a.Wait(); err != nil {
		return GraphEditResult{}, err
	}
	return s.edit(p.GraphScope, func(v graph.View) ([]graph.MemoryRef, error) {
		return s.a.deps.Graph.Merge(s.a.ctx, v, s.a.actor, p.Into, p.From)
	})
}

// DeleteEntity removes an entity from every memory that mentions it.
func (s *GraphService) DeleteEntity(p GraphEntityParams) (GraphEditResult, error) {
	if err := s.a.Wait(); err != nil {
		return GraphEditResult{}, err
	}
	return s.edit(p.GraphScope, func(v graph.View) ([]graph.MemoryRef, error) {
		return s.a.deps.Graph.Delete(s.a.ctx, v, s.a.actor, p.Entity)
	})
}

// AddRelation appends a relation line to one memory, named by id or slug (see
// GraphAddRelationParams); an id outside the caller's view is not found, as before.
func (s *GraphService) AddRelation(p GraphAddRelationParams) (GraphEditResult, error) {
	if err := s.a.Wait(); err != nil {
		return GraphEditResult{}, err
	}
	return s.edit(p.GraphScope, func(v graph.View) ([]graph.MemoryRef, error) {
		id, err := s.memoryID(p)
		if err != nil {
			return nil, err
		}
		return s.a.deps.Graph.AddRelation(s.a.ctx, v, s.a.actor, id, p.From, p.Type, p.To)
	})
}

// DeleteRelation removes a relation from every memory that states it.
func (s *GraphService) DeleteRelation(p GraphDeleteRelationParams) (GraphEditResult, error) {
	if err := s.a.Wait(); err != nil {
		return GraphEditResult{}, err
	}
	return s.edit(p.GraphScope, func(v graph.View) ([]graph.MemoryRef, error) {
		return s.a.deps.Graph.DeleteRelation(s.a.ctx, v, s.a.actor, p.EdgeID)
	})
}
