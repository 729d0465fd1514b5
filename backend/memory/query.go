package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Filter narrows listing and recall. With Scope empty and Workdir or Agent set it selects what
// an agent working there may see: global, that project and that agent's own memories.
type Filter struct {
	Scope    Scope  `json:"scope,omitempty"`
	Workdir  string `json:"workdir,omitempty"`
	Agent    string `json:"agent,omitempty"`
	Type     Type   `json:"type,omitempty"`
	Reviewed *bool  `json:"reviewed,omitempty"`
	// Archived selects archived entries instead of live ones.
	Archived bool `json:"archived,omitempty"`
	// NoDaily leaves journal days out.
	NoDaily bool `json:"no_daily,omitempty"`
	// Oldest lists the oldest created first (the Review queue) instead of the newest updated.
	Oldest bool `json:"oldest,omitempty"`
	Limit  int  `json:"limit,omitempty"`
	Offset int  `json:"offset,omitempty"`
}

// where renders the filter as SQL over memory_meta aliased m.
func (f Filter) where(ps *Projects) (string, []any, error) {
	conds := []string{"m.archived = ?"}
	args := []any{f.Archived}
	switch {
	case f.Scope != "":
		if !f.Scope.Valid() {
			return "", nil, codeErr(CodeInvalidScope, map[string]any{"Scope": string(f.Scope)}, "invalid scope %q", f.Scope)
		}
		conds = append(conds, "m.scope = ?")
		args = append(args, string(f.Scope))
		switch {
		case f.Scope == ScopeProject && f.Workdir != "":
			key, err := ps.key(f.Workdir)
			if err != nil {
				return "", nil, err
			}
			conds = append(conds, "m.scope_key = ?")
			args = append(args, key)
		case f.Scope == ScopeAgent && f.Agent != "":
			conds = append(conds, "m.scope_key = ?")
			args = append(args, f.Agent)
		}
	case f.Workdir != "" || f.Agent != "":
		vis := []string{"m.scope = 'global'"}
		if f.Workdir != "" {
			key, err := ps.key(f.Workdir)
			if err != nil {
				return "", nil, err
			}
			vis = append(vis, "(m.scope = 'project' AND m.scope_key = ?)")
			args = append(args, key)
		}
		if f.Agent != "" {
			vis = append(vis, "(m.scope = 'agent' AND m.scope_key = ?)")
			args = append(args, f.Agent)
		}
		conds = append(conds, "("+strings.Join(vis, " OR ")+")")
	}
	if f.Type != "" {
		if !f.Type.Valid() {
			return "", nil, codeErr(CodeInvalidType, map[string]any{"Type": string(f.Type)}, "invalid type %q", f.Type)
		}
		conds = append(conds, "m.type = ?")
		args = append(args, string(f.Type))
	}
	if f.NoDaily {
		conds = append(conds, "m.type <> 'daily'")
	}
	if f.Reviewed != nil {
		conds = append(conds, "m.reviewed = ?")
		args = append(args, *f.Reviewed)
	}
	return strings.Join(conds, " AND "), args, nil
}

// page is the row limit and order of a listing: 100 rows by default, newest first unless
// Oldest.
func (f Filter) page() (limit int, order string) {
	limit = f.Limit
	if limit <= 0 {
		limit = 100
	}
	order = `m.updated DESC, m.rid DESC`
	if f.Oldest {
		order = `m.created ASC, m.rid ASC`
	}
	return limit, order
}

// Get returns one memory by id.
func (s *Store) Get(ctx context.Context, id string) (*Memory, error) { return getByID(ctx, s.db, id) }

// GetBySlug returns the live memory with slug in one scope instance.
func (s *Store) GetBySlug(ctx context.Context, scope Scope, workdir, agent, slug string) (*Memory, error) {
	_, _, key, err := s.scopeKey(scope, workdir, agent)
	if err != nil {
		return nil, err
	}
	return getBySlug(ctx, s.db, scope, key, slug)
}

// UpdatedBySlug returns when the live memory with slug in the scope instance key (the index's
// scope_key: a project's key, an agent's name, "" for global) last changed. Recall asks it of
// a memory another one names as conflicting: by key, because a synced project memory's
// workdir may be another machine's path.
func (s *Store) UpdatedBySlug(ctx context.Context, scope Scope, key, slug string) (time.Time, error) {
	var updated metaStamp
	err := s.db.QueryRowContext(ctx, `SELECT updated FROM memory_meta
		WHERE scope = ? AND scope_key = ? AND slug = ? AND archived = 0 ORDER BY type = 'daily' LIMIT 1`,
		string(scope), key, slug).Scan(&updated)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, codeErr(CodeNotFound, map[string]any{"Ref": slug}, "no memory %s in %s", slug, scope)
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("memory: unable to read %s: %w", slug, err)
	}
	return updated.t, nil
}

// List returns memories matching f, newest first, and the total count.
func (s *Store) List(ctx context.Context, f Filter) ([]*Memory, int, error) {
	where, args, err := f.where(s.projects)
	if err != nil {
		return nil, 0, err
	}
	var total int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM memory_meta m WHERE `+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("memory: unable to count: %w", err)
	}
	limit, order := f.page()
	rows, err := s.db.QueryContext(ctx, `SELECT `+metaColumns+` FROM memory_meta m WHERE `+where+`
		ORDER BY `+order+` LIMIT ? OFFSET ?`, append(args, limit, f.Offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("memory: unable to list: %w", err)
	}
	defer rows.Close()
	var out []*Memory
	for rows.Next() {
		m, _, err := scanMemory(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("memory: unable to scan: %w", err)
		}
		out = append(out, m)
	}
	return out, total, rows.Err()
}

// Snippet returns about width characters of body around the first query term it contains.
func Snippet(body, q string, width int) string {
	runes := []rune(strings.Join(strings.Fields(body), " "))
	if len(runes) <= width {
		return string(runes)
	}
	lower := strings.ToLower(string(runes))
	at := -1
	for _, t := range SplitQuery(q) {
		if i := strings.Index(lower, strings.ToLower(t.Text)); i >= 0 {
			at = utf8.RuneCountInString(lower[:i])
			break
		}
	}
	start := 0
	if at > width/3 {
		start = at - width/3
	}
	end := min(start+width, len(runes))
	out := string(runes[start:end])
	if start > 0 {
		out = "…" + out
	}
	if end < len(runes) {
		out += "…"
	}
	return out
}
