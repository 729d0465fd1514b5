package mcp

import (
	"encoding/json"
	"errors"

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
		refs := map[string]string{} // the entity names the call gives, by argument
		switch method {
		case "graph.entities":
			params = &api.GraphEntitiesParams{GraphScope: sc, Query: a.Query, Types: a.Types, Limit: a.Limit}
		case "graph.neighbors":
			params = &api.GraphNeighborsParams{GraphScope: sc, Entity: a.Entity, Depth: a.Depth, RelationTypes: a.RelationTypes,
				EntityTypes: a.EntityTypes, Limit: a.Limit}
			refs["entity"] = a.Entity
		case "graph.path":
			params = &api.GraphPathParams{GraphScope: sc, From: a.From, To: a.To, MaxHops: a.MaxHops, RelationTypes: a.RelationTypes}
			refs["from"], refs["to"] = a.From, a.To
		default:
			params = &api.GraphSubgraphParams{GraphScope: sc, Entity: a.Entity, Depth: a.Depth, Limit: a.Limit,
				RelationTypes: a.RelationTypes, EntityTypes: a.EntityTypes}
			refs["entity"] = a.Entity
		}
		res, err := s.api.Invoke(method, params)
		if err != nil {
			return nil, s.apiError(err, &nextCall{Tool: "graph_entities", Arguments: map[string]any{"query": missedEntity(err, a)}})
		}
		return s.withSameNamed(res, sc, refs), nil
	}
}

// missedEntity is the name to look up after a failure: the one the error says was not found
// (graph_path's "to" was suggested as its "from"), else the call's own.
func missedEntity(err error, a graphArgs) string {
	var ae *api.Error
	if errors.As(err, &ae) {
		if ref, ok := ae.Args["Entity"].(string); ok && ref != "" {
			return ref
		}
	}
	if a.Entity != "" {
		return a.Entity
	}
	return a.From
}

// sameNamed is one name of the call that more than one visible entity bears.
type sameNamed struct {
	Field      string `json:"field"`
	Name       string `json:"name"`
	Note       string `json:"note"`
	Candidates any    `json:"candidates"`
}

// withSameNamed is a graph answer (led by the notice that its text is data), with the names
// of the call that several visible entities bear and those entities: the graph uses the one in
// the narrowest scope (a project's Alice before the global one), and the model was not told
// that the others exist, nor how to name one of them (its id).
func (s *Server) withSameNamed(res any, sc api.GraphScope, refs map[string]string) any {
	var found []sameNamed
	for _, field := range []string{"entity", "from", "to"} {
		ref := refs[field]
		if ref == "" || api.EntityNameKey(ref) == "" {
			continue
		}
		if cands := s.entitiesNamed(sc, ref); len(cands) > 1 {
			found = append(found, sameNamed{Field: field, Name: ref, Candidates: cands,
				Note: s.api.Text("notice.mcp_graph_same_name", map[string]any{"Name": ref, "Count": len(cands), "Field": field})})
		}
	}
	if len(found) == 0 {
		return withNotice{res}
	}
	var fields map[string]any
	if json.Unmarshal(mustJSON(res), &fields) != nil || fields == nil {
		return withNotice{res}
	}
	fields["same_name"] = found
	return withNotice{fields}
}

// entitiesNamed are the visible entities whose name or one of whose aliases is name, as the
// graph compares them; an id names none.
func (s *Server) entitiesNamed(sc api.GraphScope, name string) []any {
	res, err := s.api.Invoke("graph.entities", &api.GraphEntitiesParams{GraphScope: sc, Query: name, Limit: 100})
	if err != nil {
		return nil
	}
	key := api.EntityNameKey(name)
	var out []any
	for _, e := range res.(api.GraphEntitiesResult).Entities {
		match := api.EntityNameKey(e.Name) == key
		for _, al := range e.Aliases {
			match = match || api.EntityNameKey(al) == key
		}
		if match {
			out = append(out, e)
		}
	}
	return out
}
