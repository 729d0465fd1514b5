package memory

import (
	"context"
	"fmt"
	"sort"
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
	// Created and ConflictsWith let recall move an unreviewed entry that conflicts with a
	// newer one below it without loading the memories of the index.
	Created       time.Time
	ConflictsWith []string
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
//
// Called for every Memory Index (each session's first overview, every update check), so it
// reads a bounded amount: the totals are counted per visible scope instance over the bucket
// index (one OR over the three instances made SQLite sort every visible row in a temporary
// B-tree: ~70 ms at 100k memories), the shadowed slugs are found by merging two slug-ordered
// index ranges, and each bucket reads only its newest per rows.
func (s *Store) IndexBuckets(ctx context.Context, f Filter, per int, shadowWorkdir string) ([]IndexBucket, error) {
	f.Archived = false
	out, err := s.bucketTotals(ctx, f)
	if err != nil {
		return nil, err
	}
	shadow, sargs := "", []any(nil)
	if shadowWorkdir != "" {
		key, err := s.projectKey(shadowWorkdir)
		if err != nil {
			return nil, err
		}
		minus, err := s.shadowedCounts(ctx, key)
		if err != nil {
			return nil, err
		}
		if len(minus) > 0 {
			shadow = ` AND NOT (m.scope = 'global' AND EXISTS (SELECT 1 FROM memory_meta p WHERE p.scope = 'project'
			AND p.scope_key = ? AND p.slug = m.slug AND p.archived = 0))`
			sargs = []any{key}
		}
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
		q := `SELECT m.id, m.slug, m.title, m.workdir, m.agent, m.confidence, m.reviewed, m.updated, m.version, m.created, m.conflicts_with
			FROM memory_meta m WHERE m.scope = ? AND m.scope_key = ? AND m.archived = 0 AND m.type = ?` + shadow + `
			ORDER BY m.updated DESC LIMIT ?`
		a := append(append([]any{string(b.Scope), b.Key, string(b.Type)}, sargs...), per)
		rs, err := s.db.QueryContext(ctx, q, a...)
		if err != nil {
			return nil, fmt.Errorf("memory: unable to list index bucket: %w", err)
		}
		for rs.Next() {
			e := IndexEntry{Scope: b.Scope, Type: b.Type}
			var conf, conflicts string
			var updated, created metaStamp
			if err := rs.Scan(&e.ID, &e.Slug, &e.Title, &e.Workdir, &e.Agent, &conf, &e.Reviewed, &updated, &e.Version, &created, &conflicts); err != nil {
				rs.Close()
				return nil, fmt.Errorf("memory: unable to list index bucket: %w", err)
			}
			e.Confidence = Confidence(conf)
			e.Updated, e.Created = updated.t, created.t
			unmarshalList(conflicts, &e.ConflictsWith)
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

// bucketTotals counts the live memories f lets through per scope instance and type, ordered by
// scope, scope key and type. A caller's view (global, its project, its agent) is counted one
// instance at a time, each an equality range of the bucket index.
func (s *Store) bucketTotals(ctx context.Context, f Filter) ([]IndexBucket, error) {
	parts := []Filter{f}
	if f.Scope == "" && (f.Workdir != "" || f.Agent != "") {
		g := f
		g.Workdir, g.Agent, g.Scope = "", "", ScopeGlobal
		parts = []Filter{g}
		if f.Workdir != "" {
			p := f
			p.Agent, p.Scope = "", ScopeProject
			parts = append(parts, p)
		}
		if f.Agent != "" {
			a := f
			a.Workdir, a.Scope = "", ScopeAgent
			parts = append(parts, a)
		}
	}
	var out []IndexBucket
	for _, pf := range parts {
		where, args, err := pf.where(s.projects)
		if err != nil {
			return nil, err
		}
		if pf.Scope == ScopeGlobal {
			where += " AND m.scope_key = ''"
		}
		rows, err := s.db.QueryContext(ctx, `SELECT m.scope, m.scope_key, m.type, COUNT(*) FROM memory_meta m WHERE `+where+`
			GROUP BY m.scope, m.scope_key, m.type`, args...)
		if err != nil {
			return nil, fmt.Errorf("memory: unable to count index buckets: %w", err)
		}
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
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Scope != b.Scope {
			return a.Scope < b.Scope
		}
		if a.Key != b.Key {
			return a.Key < b.Key
		}
		return a.Type < b.Type
	})
	return out, nil
}

// shadowedCounts counts, per type, the live global memories that a live memory of the project
// (key) shadows by using the same slug. The slugs the two share are found first by merging the
// two slug-ordered ranges of memory_meta_slug (index only, no row read); only those are then
// looked up, so a project that shadows nothing costs one pass over the two ranges.
func (s *Store) shadowedCounts(ctx context.Context, key string) (map[Type]int, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT slug FROM memory_meta WHERE scope = 'project' AND scope_key = ?
		INTERSECT SELECT slug FROM memory_meta WHERE scope = 'global' AND scope_key = '' ORDER BY 1`, key)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to count shadowed entries: %w", err)
	}
	var shared []any
	for rows.Next() {
		var sl string
		if err := rows.Scan(&sl); err != nil {
			rows.Close()
			return nil, fmt.Errorf("memory: unable to count shadowed entries: %w", err)
		}
		shared = append(shared, sl)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return nil, fmt.Errorf("memory: unable to count shadowed entries: %w", err)
	}
	minus := map[Type]int{}
	const chunk = 500
	for len(shared) > 0 {
		n := min(chunk, len(shared))
		part := shared[:n]
		shared = shared[n:]
		ph := strings.Repeat("?,", len(part))
		args := append(append(make([]any, 0, len(part)+1), part...), key)
		rs, err := s.db.QueryContext(ctx, `SELECT g.type, COUNT(*) FROM memory_meta g WHERE g.scope = 'global' AND g.scope_key = ''
			AND g.archived = 0 AND g.slug IN (`+ph[:len(ph)-1]+`) AND EXISTS (SELECT 1 FROM memory_meta p
			WHERE p.scope = 'project' AND p.scope_key = ? AND p.slug = g.slug AND p.archived = 0) GROUP BY g.type`,
			args...)
		if err != nil {
			return nil, fmt.Errorf("memory: unable to count shadowed entries: %w", err)
		}
		for rs.Next() {
			var typ string
			var c int
			if err := rs.Scan(&typ, &c); err != nil {
				rs.Close()
				return nil, fmt.Errorf("memory: unable to count shadowed entries: %w", err)
			}
			minus[Type(typ)] += c
		}
		err = rs.Err()
		rs.Close()
		if err != nil {
			return nil, fmt.Errorf("memory: unable to count shadowed entries: %w", err)
		}
	}
	return minus, nil
}
