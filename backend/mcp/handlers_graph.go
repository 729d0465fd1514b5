package mcp

import (
	"encoding/json"

	"engram/backend/api"
)

// graphArgs are the arguments of the read-only graph tools (edits are a person's, not a
// model's, and are not offered here).
type graphArgs struct {
	Query         string   `json:"query"`
	Entity        string   `json:"entity"`
	From          string   `json:"from"`
	To            string   `json:"to"`
	Depth         int      `json:"depth"`
	MaxHops       int      `json:"max_hops"`
	Limit         int      `json:"limit"`
	Types         []string `json:"types"`
	RelationTypes []string `json:"relation_types"`
	EntityTypes   []string `json:"entity_types"`
	Scope         string   `json:"scope"`
	Workdir       string   `json:"workdir"`
}

// graphCall runs one graph method for the session's caller: its agent and project, so the
// api's visibility (global, the project, the agent; arguments only narrow) bounds the answer.
func graphCall(tool, method string) func(s *Server, c *call, raw json.RawMessage) (any, *toolError) {
	return func(s *Server, c *call, raw json.RawMessage) (any, *toolError) {
		var a graphArgs
		if e := s.decode(tool, raw, &a); e != nil {
			return nil, e
		}
		if a.Scope == string(api.ScopeAgent) && c.st.agent == "" {
			return nil, s.agentUnknown(tool)
		}
		workdir, terr := s.resolveWorkdir(c.ctx, c.ss, c.st, a.Workdir)
		if terr != nil {
			return nil, terr
		}
		sc := api.GraphScope{Scope: api.Scope(a.Scope), Workdir: workdir, Agent: c.st.agent}
		var params any
		switch method {
		case "graph.entities":
			params = &api.GraphEntitiesParams{GraphScope: sc, Query: a.Query, Types: a.Types, Limit: a.Limit}
		case "graph.neighbors":
			params = &api.GraphNeighborsParams{GraphScope: sc, Entity: a.Entity, Depth: a.Depth, RelationTypes: a.RelationTypes,
				EntityTypes: a.EntityTypes, Limit: a.Limit}
		case "graph.path":
			params = &api.GraphPathParams{GraphScope: sc, From: a.From, To: a.To, MaxHops: a.MaxHops, RelationTypes: a.RelationTypes}
		default:
			params = &api.GraphSubgraphParams{GraphScope: sc, Entity: a.Entity, Depth: a.Depth, Limit: a.Limit,
				RelationTypes: a.RelationTypes, EntityTypes: a.EntityTypes}
		}
		res, err := s.api.Invoke(method, params)
		if err != nil {
			return nil, s.apiError(err, &nextCall{Tool: "graph_entities", Arguments: map[string]any{"query": a.Entity + a.From}})
		}
		return withNotice{res}, nil
	}
}
