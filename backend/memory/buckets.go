package memory

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// ShadowedSlugs reports which of slugs also name a live memory of the project at workdir: such
// a project entry shadows the global one with the same slug.
func (s *Store) ShadowedSlugs(ctx context.Context, workdir string, slugs []string) (map[string]bool, error) {
	out := map[string]bool{}
	if workdir == "" || len(slugs) == 0 {
		return out, nil
	}
	key, err := s.projectKey(workdir)
	if err != nil {
		return nil, err
	}
	ph := strings.Repeat("?,", len(slugs))
	a := []any{key}
	for _, sl := range slugs {
		a = append(a, sl)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT slug FROM memory_meta WHERE scope = 'project' AND scope_key = ?
		AND archived = 0 AND slug IN (`+ph[:len(ph)-1]+`)`, a...)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to check shadowing: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var sl string
		if err := rows.Scan(&sl); err != nil {
			return nil, fmt.Errorf("memory: unable to check shadowing: %w", err)
		}
		out[sl] = true
	}
	return out, rows.Err()
}

// IndexEntry is what the Memory Index shows of one memory: no body.
type IndexEntry struct {
	ID         string
	Slug       string
	Title      string
	Scope      Scope
	Workdir    string
	Agent      string
	Type       Type
	Confidence Confidence
	Reviewed   bool
	Updated    time.Time
	Version    string
}

// IndexBucket is one scope instance and type of the Memory Index: the newest entries and how
// many there are in all.
type IndexBucket struct {
	Scope   Scope
	Key     string
	Type    Type
	Total   int
	Entries []IndexEntry
}

// IndexBuckets lists, for each scope instance and type visible through f, the per newest live
// entries and the total. With shadowWorkdir set, global entries whose slug a live memory of
// that project also uses are left out (and not counted): the project entry shadows them.
func (s *Store) IndexBuckets(ctx context.Context, f Filter, per int, shadowWorkdir string) ([]IndexBucket, error) {
	f.Archived = false
	where, args, err := f.where(s.projects)
	if err != nil {
		return nil, err
	}
	shadow, sargs := "", []any(nil)
	if shadowWorkdir != "" {
		key, err := s.projectKey(shadowWorkdir)
		if err != nil {
			return nil, err
		}
		shadow = ` AND NOT (m.scope = 'global' AND EXISTS (SELECT 1 FROM memory_meta p WHERE p.scope = 'project'
			AND p.scope_key = ? AND p.slug = m.slug AND p.archived = 0))`
		sargs = []any{key}
	}
	rows, err := s.db.QueryContext(ctx, `SELECT m.scope, m.scope_key, m.type, COUNT(*) FROM memory_meta m WHERE `+where+`
		GROUP BY m.scope, m.scope_key, m.type ORDER BY m.scope, m.scope_key, m.type`, args...)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to count index buckets: %w", err)
	}
	var out []IndexBucket
	for rows.Next() {
		var b IndexBucket
		var scope, typ string
		if err := rows.Scan(&scope, &b.Key, &typ, &b.Total); err != nil {
			rows.Close()
			return nil, fmt.Errorf("memory: unable to count index buckets: %w", err)
		}
		b.Scope, b.Type = Scope(scope), Type(typ)
		out = append(out, b)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return nil, fmt.Errorf("memory: unable to count index buckets: %w", err)
	}
	if shadow != "" {
		// Shadowed global entries, counted from the project's side (usually the smaller).
		rs, err := s.db.QueryContext(ctx, `SELECT g.type, COUNT(*) FROM memory_meta p JOIN memory_meta g
			ON g.scope = 'global' AND g.scope_key = '' AND g.slug = p.slug AND g.archived = 0
			WHERE p.scope = 'project' AND p.scope_key = ? AND p.archived = 0 GROUP BY g.type`, sargs...)
		if err != nil {
			return nil, fmt.Errorf("memory: unable to count shadowed entries: %w", err)
		}
		minus := map[Type]int{}
		for rs.Next() {
			var typ string
			var n int
			if err := rs.Scan(&typ, &n); err != nil {
				rs.Close()
				return nil, fmt.Errorf("memory: unable to count shadowed entries: %w", err)
			}
			minus[Type(typ)] = n
		}
		rs.Close()
		kept := out[:0]
		for _, b := range out {
			if b.Scope == ScopeGlobal {
				b.Total -= minus[b.Type]
			}
			if b.Total > 0 {
				kept = append(kept, b)
			}
		}
		out = kept
	}
	for i := range out {
		b := &out[i]
		q := `SELECT m.id, m.slug, m.title, m.workdir, m.agent, m.confidence, m.reviewed, m.updated, m.version
			FROM memory_meta m WHERE m.scope = ? AND m.scope_key = ? AND m.archived = 0 AND m.type = ?` + shadow + `
			ORDER BY m.updated DESC LIMIT ?`
		a := append(append([]any{string(b.Scope), b.Key, string(b.Type)}, sargs...), per)
		rs, err := s.db.QueryContext(ctx, q, a...)
		if err != nil {
			return nil, fmt.Errorf("memory: unable to list index bucket: %w", err)
		}
		for rs.Next() {
			e := IndexEntry{Scope: b.Scope, Type: b.Type}
			var conf, updated string
			if err := rs.Scan(&e.ID, &e.Slug, &e.Title, &e.Workdir, &e.Agent, &conf, &e.Reviewed, &updated, &e.Version); err != nil {
				rs.Close()
				return nil, fmt.Errorf("memory: unable to list index bucket: %w", err)
			}
			e.Confidence = Confidence(conf)
			e.Updated, _ = time.Parse(time.RFC3339Nano, updated)
			if e.Scope == ScopeAgent && e.Agent == "" {
				e.Agent = b.Key
			}
			b.Entries = append(b.Entries, e)
		}
		err = rs.Err()
		rs.Close()
		if err != nil {
			return nil, fmt.Errorf("memory: unable to list index bucket: %w", err)
		}
	}
	return out, nil
}
