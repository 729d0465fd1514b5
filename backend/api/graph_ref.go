package api

import (
	"errors"
	"strings"

	"engram/backend/memory"
)

// memoryID resolves the memory graph.addRelation names, the way show and update read SLUG|ID:
// an id first (graph.AddRelation then refuses one outside the caller's view, and an archived
// one, as not_found), else a live memory with that slug in the scope instance the scope
// fields name (an agent alone names agent scope, a folder alone project scope), global without
// any. When neither finds one, the not_found error says both
// were tried and where the slug was looked for (error.graph_memory_not_found).
func (s *GraphService) memoryID(p GraphAddRelationParams) (string, error) {
	a := s.a
	ref, old := strings.TrimSpace(p.Memory), strings.TrimSpace(p.MemoryID)
	switch {
	case ref == "":
		ref = old
	case old != "" && old != ref:
		return "", a.newError(CodeInvalidParams, map[string]any{"Method": "graph.addRelation",
			"Detail": "memory and memory_id name different memories: send one"})
	}
	if ref == "" {
		return "", a.newError(CodeInvalidParams, map[string]any{"Method": "graph.addRelation", "Detail": "memory (an id or a slug) is required"})
	}
	m, err := a.deps.Store.Get(a.ctx, ref)
	if err == nil {
		return m.ID, nil
	}
	if !errors.Is(err, memory.ErrNotFound) {
		return "", err
	}
	scope := ScopeNamed(p.Scope, p.Workdir, p.Agent)
	if m, err = a.resolve(RefParams{Slug: ref, Scope: scope, Workdir: p.Workdir, Agent: p.Agent}); err == nil {
		return m.ID, nil
	}
	if !errors.Is(err, memory.ErrNotFound) {
		return "", err // a workdir the store cannot key, …: said as the store says it
	}
	// "global", "project /path", "agent codex": the slug's scope in the caller's language.
	where := a.t("cli.quota_scope."+string(scope), map[string]any{"Workdir": p.Workdir, "Agent": strings.TrimSpace(p.Agent)})
	args := map[string]any{"Ref": ref, "Where": where}
	const key = "error.graph_memory_not_found"
	return "", &Error{Code: memory.CodeNotFound, I18nKey: key, Args: args, Message: a.t(key, args)}
}
