package memory

// Matcher is a Filter prepared for checking rows in memory (a vector cache pre-filter); it
// mirrors the SQL filter, and results are filtered again in SQL when hydrated.
type Matcher struct {
	f          Filter
	projectKey string
}

// Matcher prepares f for Allows, keying its workdir through ps (the store's Projects).
func (f Filter) Matcher(ps *Projects) (Matcher, error) {
	m := Matcher{f: f}
	if f.Scope != "" && !f.Scope.Valid() {
		return m, codeErr(CodeInvalidScope, map[string]any{"Scope": string(f.Scope)}, "invalid scope %q", f.Scope)
	}
	if f.Workdir != "" {
		key, err := ps.key(f.Workdir)
		if err != nil {
			return m, err
		}
		m.projectKey = key
	}
	return m, nil
}

// Allows reports whether a memory of scope and scope key, with type typ and the given archived
// and reviewed states, passes the filter.
func (m Matcher) Allows(scope Scope, key string, typ Type, archived, reviewed bool) bool {
	f := m.f
	if archived != f.Archived {
		return false
	}
	if f.Type != "" && typ != f.Type {
		return false
	}
	if f.NoDaily && typ == TypeDaily {
		return false
	}
	if f.Reviewed != nil && reviewed != *f.Reviewed {
		return false
	}
	switch {
	case f.Scope != "":
		if scope != f.Scope {
			return false
		}
		if f.Scope == ScopeProject && f.Workdir != "" && key != m.projectKey {
			return false
		}
		if f.Scope == ScopeAgent && f.Agent != "" && key != f.Agent {
			return false
		}
	case f.Workdir != "" || f.Agent != "":
		switch scope {
		case ScopeGlobal:
		case ScopeProject:
			if f.Workdir == "" || key != m.projectKey {
				return false
			}
		case ScopeAgent:
			if f.Agent == "" || key != f.Agent {
				return false
			}
		default:
			return false
		}
	}
	return true
}
