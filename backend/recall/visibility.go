package recall

import (
	"fmt"
	"strings"

	"engram/backend/memory"
)

// Caller is who a model-facing call serves: the project its agent works in and the agent's
// name. Both come from the transport's context (the host that runs the model, an MCP
// session), never from a model's arguments: a model may only narrow what its caller sees.
type Caller struct {
	Workdir string `json:"workdir,omitempty"`
	Agent   string `json:"agent,omitempty"`
}

// Visibility is the one answer to "which memories may this caller's model see": global, plus
// the caller's project when one is set, plus the caller's agent when one is set; an empty
// caller sees global only. Every path that hands memories to a model (the MemoryManager
// tool, the Memory Index, build_context, MCP) goes through it, so no path can show more.
// A Visibility may be narrowed to one scope (Narrow); the zero value sees global only.
type Visibility struct {
	workdir    string // canonical, "" when the caller has no project
	projectKey string
	agent      string
	// scope, when set, narrows the view to that one scope.
	scope memory.Scope
}

// NewVisibility returns what c may see. A workdir that is not an absolute path or an agent
// name that could not name an agent folder is refused (coded memory errors): a caller that
// cannot be placed sees nothing rather than everything. The workdir's project is resolved
// through ps (the store's Projects): its id file or git remote, else its path, names the key,
// so every clone of one repository sees the same project memories.
func NewVisibility(c Caller, ps *memory.Projects) (Visibility, error) {
	var v Visibility
	if wd := strings.TrimSpace(c.Workdir); wd != "" {
		p, err := ps.Resolve(wd)
		if err != nil {
			return Visibility{}, err
		}
		v.workdir, v.projectKey = p.Workdir, p.Key
	}
	if a := strings.TrimSpace(c.Agent); a != "" {
		if !memory.ValidAgent(a) {
			return Visibility{}, &memory.Error{Code: memory.CodeInvalidAgent, Args: map[string]any{"Agent": a},
				Msg: fmt.Sprintf("invalid agent name %q", a)}
		}
		v.agent = a
	}
	return v, nil
}

// Workdir is the caller's project folder (canonical), or "".
func (v Visibility) Workdir() string { return v.workdir }

// ProjectKey is the key of the caller's project (its identity's), or "".
func (v Visibility) ProjectKey() string { return v.projectKey }

// Agent is the caller's agent name, or "".
func (v Visibility) Agent() string { return v.agent }

// Scope is the scope the view is narrowed to, or "" for everything the caller sees.
func (v Visibility) Scope() memory.Scope { return v.scope }

// Narrow restricts the view to what a call asks for: a scope, and the workdir and agent it
// names. Asking is never a way to see more: a scope the caller has no instance of, a workdir
// other than the caller's project, or an agent other than the caller, is refused with
// scope_not_visible; empty values ask for nothing.
func (v Visibility) Narrow(scope memory.Scope, workdir, agent string) (Visibility, error) {
	if wd := strings.TrimSpace(workdir); wd != "" {
		canon, err := memory.CanonicalWorkdir(wd)
		if err != nil || v.workdir == "" || canon != v.workdir {
			return Visibility{}, notVisible(scope, "workdir", wd)
		}
	}
	if a := strings.TrimSpace(agent); a != "" && a != v.agent {
		return Visibility{}, notVisible(scope, "agent", a)
	}
	switch scope {
	case "":
		return v, nil
	case memory.ScopeGlobal:
	case memory.ScopeProject:
		if v.workdir == "" {
			return Visibility{}, codeErr(CodeNoProjectHere, nil, "this caller has no project (no workdir)")
		}
	case memory.ScopeAgent:
		if v.agent == "" {
			return Visibility{}, codeErr(CodeNoAgentHere, nil, "this caller has no agent name")
		}
	default:
		return Visibility{}, &memory.Error{Code: memory.CodeInvalidScope, Args: map[string]any{"Scope": string(scope)},
			Msg: fmt.Sprintf("invalid scope %q", scope)}
	}
	if v.scope != "" && v.scope != scope {
		return Visibility{}, notVisible(scope, "scope", string(scope))
	}
	v.scope = scope
	return v, nil
}

func notVisible(scope memory.Scope, field, value string) *Error {
	return codeErr(CodeScopeNotVisible, map[string]any{"Field": field, "Value": value, "Scope": string(scope)},
		"%s %q is outside what this caller may see", field, value)
}

// Scopes lists the scopes the view holds, in the order a slug is looked up: the project
// (which shadows global entries of the same slug), the agent, then global.
func (v Visibility) Scopes() []memory.Scope {
	if v.scope != "" {
		return []memory.Scope{v.scope}
	}
	var out []memory.Scope
	if v.workdir != "" {
		out = append(out, memory.ScopeProject)
	}
	if v.agent != "" {
		out = append(out, memory.ScopeAgent)
	}
	return append(out, memory.ScopeGlobal)
}

// Filter is the view as a store filter (scope, workdir and agent set; the caller adds type,
// limit and the rest). It never leaves scope, workdir and agent all empty, which the store
// reads as "everything".
func (v Visibility) Filter() memory.Filter {
	switch v.scope {
	case memory.ScopeGlobal:
		return memory.Filter{Scope: memory.ScopeGlobal}
	case memory.ScopeProject:
		return memory.Filter{Scope: memory.ScopeProject, Workdir: v.workdir}
	case memory.ScopeAgent:
		return memory.Filter{Scope: memory.ScopeAgent, Agent: v.agent}
	}
	if v.workdir == "" && v.agent == "" {
		return memory.Filter{Scope: memory.ScopeGlobal}
	}
	return memory.Filter{Workdir: v.workdir, Agent: v.agent}
}

// Search returns p restricted to the view (its scope, workdir and agent are replaced).
func (v Visibility) Search(p SearchParams) SearchParams {
	f := v.Filter()
	p.Scope, p.Workdir, p.Agent = f.Scope, f.Workdir, f.Agent
	return p
}

// Allows reports whether m is inside the view. Paths that filter in the store check again
// with it, so a store filter that drifts cannot hand a model another scope's memory.
func (v Visibility) Allows(m *memory.Memory) bool {
	return m != nil && v.AllowsKey(m.Scope, m.ScopeKey())
}

// AllowsKey reports whether the scope instance (scope and scope key: "" for global, the
// project key, or the agent name) is inside the view.
func (v Visibility) AllowsKey(scope memory.Scope, key string) bool {
	if v.scope != "" && scope != v.scope {
		return false
	}
	switch scope {
	case memory.ScopeGlobal:
		return true
	case memory.ScopeProject:
		return v.projectKey != "" && key == v.projectKey
	case memory.ScopeAgent:
		return v.agent != "" && key == v.agent
	}
	return false
}
