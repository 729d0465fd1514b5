package organizer

import (
	"encoding/json"
	"strings"

	"engram/backend/memory"
)

// scopeFilter checks the scope a Run Now asked for and names its instance; nil when the run
// covers every scope. A project is named by its folder (or by the key the quota summary
// shows when its folder is not known), an agent by its name.
func (p RunNowParams) scopeFilter(ps *memory.Projects) (*ScopeInstance, error) {
	if p.Scope == "" {
		if p.Workdir != "" || p.Agent != "" || p.Key != "" {
			return nil, invalidScope(p, "a workdir, agent or key needs a scope")
		}
		return nil, nil
	}
	switch p.Scope {
	case memory.ScopeGlobal:
		if p.Workdir != "" || p.Agent != "" || (p.Key != "" && p.Key != "global") {
			return nil, invalidScope(p, "the global scope takes no workdir, agent or key")
		}
		return &ScopeInstance{Scope: memory.ScopeGlobal}, nil
	case memory.ScopeProject:
		if strings.TrimSpace(p.Workdir) != "" {
			proj, err := ps.Resolve(p.Workdir)
			if err != nil {
				return nil, invalidScope(p, "the workdir must be an absolute path")
			}
			wd, key := proj.Workdir, proj.Key
			if p.Key != "" && p.Key != key {
				return nil, invalidScope(p, "the key is not the workdir's")
			}
			return &ScopeInstance{Scope: memory.ScopeProject, Key: key, Workdir: wd}, nil
		}
		if !memory.ValidProjectKey(p.Key) {
			return nil, invalidScope(p, "a project needs its workdir or key")
		}
		return &ScopeInstance{Scope: memory.ScopeProject, Key: p.Key}, nil
	case memory.ScopeAgent:
		agent := p.Agent
		if agent == "" {
			agent = p.Key
		}
		if !memory.ValidAgent(agent) || (p.Key != "" && p.Key != agent) {
			return nil, invalidScope(p, "an agent scope needs a valid agent name")
		}
		return &ScopeInstance{Scope: memory.ScopeAgent, Key: agent, Agent: agent}, nil
	}
	return nil, invalidScope(p, "unknown scope")
}

func invalidScope(p RunNowParams, why string) error {
	return codeErr(CodeInvalidScope, map[string]any{"Scope": string(p.Scope)}, "unable to run for scope %q: %s", p.Scope, why)
}

// encodeScopeFilter is how a run row keeps its scope instance (empty: every scope).
func encodeScopeFilter(f *ScopeInstance) string {
	if f == nil {
		return ""
	}
	raw, _ := json.Marshal(f)
	return string(raw)
}

// decodeScopeFilter reads a run row's scope instance; an unreadable one (a newer build's)
// counts as every scope, as rows from before the column did.
func decodeScopeFilter(s string) *ScopeInstance {
	if s == "" {
		return nil
	}
	var f ScopeInstance
	if json.Unmarshal([]byte(s), &f) != nil || !f.Scope.Valid() {
		return nil
	}
	return &f
}
