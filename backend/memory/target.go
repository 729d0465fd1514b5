package memory

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"
)

// scopeKey validates the scope fields of an item and returns the canonical workdir/agent and
// key: a project's key is its identity's (projects.go), never moving files (the caller may
// hold the writer lock).
func (s *Store) scopeKey(scope Scope, workdir, agent string) (wd, ag, key string, err error) {
	switch scope {
	case ScopeGlobal:
		return "", "", "", nil
	case ScopeProject:
		p, err := s.projects.resolve(workdir)
		if err != nil {
			return "", "", "", err
		}
		return p.Workdir, "", p.Key, nil
	case ScopeAgent:
		if !ValidAgent(agent) {
			return "", "", "", codeErr(CodeInvalidAgent, map[string]any{"Agent": agent}, "invalid agent name %q", agent)
		}
		if err := s.checkNewAgent(agent); err != nil {
			return "", "", "", err
		}
		return "", agent, agent, nil
	}
	return "", "", "", codeErr(CodeInvalidScope, map[string]any{"Scope": string(scope)}, "invalid scope %q", scope)
}

// importScopeKey is scopeKey for an imported line: a project memory that names no folder but
// a project key (Record.Project: its home did not know the folder) lives under that key, as
// it did where it was exported. A folder, the line's or the import's --workdir, comes first.
func (s *Store) importScopeKey(scope Scope, workdir, agent, project string) (wd, ag, key string, err error) {
	if scope == ScopeProject && strings.TrimSpace(workdir) == "" && ValidProjectKey(project) {
		return "", "", project, nil
	}
	return s.scopeKey(scope, workdir, agent)
}

// target finds the memory an item refers to: by id, else by slug within its scope instance.
func (s *Store) target(ctx context.Context, x execer, it Item) (*Memory, error) {
	if it.ID != "" {
		return getByID(ctx, x, it.ID)
	}
	if it.Slug == "" {
		return nil, codeErr(CodeNotFound, map[string]any{"Ref": ""}, "item names neither id nor slug")
	}
	scope := it.Scope
	if scope == "" {
		scope = ScopeGlobal
	}
	_, _, key, err := s.scopeKey(scope, it.Workdir, it.Agent)
	if err != nil {
		return nil, err
	}
	return getBySlug(ctx, x, scope, key, it.Slug)
}

func (s *Store) checkVersion(m *Memory, expected string) error {
	if expected != "" && expected != m.Version {
		return codeErr(CodeVersionConflict, map[string]any{"Expected": expected, "Actual": m.Version},
			"memory %s changed since it was read (expected version %s, now %s)", m.Slug, expected, m.Version)
	}
	return nil
}

// freshTarget loads the target and verifies its file still matches the index; a file edited
// by hand since the last reconcile must not be overwritten with stale index content.
func (s *Store) freshTarget(ctx context.Context, tx *sql.Tx, it Item) (*Memory, error) {
	m, err := s.target(ctx, tx, it)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(s.abs(m.Path))
	if err != nil {
		return nil, fmt.Errorf("memory: unable to read %s: %w", m.Path, err)
	}
	if v := Checksum(data); v != m.Version {
		return nil, codeErr(CodeVersionConflict, map[string]any{"Expected": m.Version, "Actual": v},
			"memory %s was edited on disk and not yet reindexed; try again", m.Slug)
	}
	return m, nil
}
