package memory

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// This file holds the small accessors the recall and embed packages need over the index. The
// SQL stays here, next to the schema it depends on; the ranking itself lives in recall.

// RankedRID is one row of a ranked list: the index row id and a score, higher is better.
type RankedRID struct {
	RID   int64
	Score float64
}

// TimeWindow narrows recall to memories created or updated in [Since, Until). A zero bound is
// open.
type TimeWindow struct {
	Since time.Time
	Until time.Time
}

// IsZero reports whether the window is open on both ends.
func (w TimeWindow) IsZero() bool { return w.Since.IsZero() && w.Until.IsZero() }

// recallWhere renders f plus the time window as SQL over memory_meta aliased m.
func recallWhere(f Filter, w TimeWindow) (string, []any, error) {
	where, args, err := f.where()
	if err != nil {
		return "", nil, err
	}
	if !w.IsZero() {
		lo, hi := "0000", "9999"
		if !w.Since.IsZero() {
			lo = indexTime(w.Since)
		}
		if !w.Until.IsZero() {
			hi = indexTime(w.Until)
		}
		where += " AND ((m.created >= ? AND m.created < ?) OR (m.updated >= ? AND m.updated < ?))"
		args = append(args, lo, hi, lo, hi)
	}
	return where, args, nil
}

func collectRanked(rows *sql.Rows, err error, what string) ([]RankedRID, error) {
	if err != nil {
		return nil, fmt.Errorf("memory: unable to search (%s): %w", what, err)
	}
	defer rows.Close()
	var out []RankedRID
	for rows.Next() {
		var r RankedRID
		if err := rows.Scan(&r.RID, &r.Score); err != nil {
			return nil, fmt.Errorf("memory: unable to scan %s row: %w", what, err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("memory: unable to search (%s): %w", what, err)
	}
	return out, nil
}

// rankCap is how many of the best full-text matches are ranked before the filter is applied.
const rankCap = 2000

// rankFTS orders the matches of table by score inside FTS first and only then joins and
// filters the best rankCap of them: joining every match to memory_meta before ordering costs as
// much again on a large index. When the filter leaves fewer than depth of those although there
// were more matches, it falls back to filtering every match.
func (s *Store) rankFTS(ctx context.Context, what, table, score string, scoreArgs []any, match string, f Filter, w TimeWindow, depth int) ([]RankedRID, error) {
	if strings.TrimSpace(match) == "" {
		return nil, nil
	}
	where, args, err := recallWhere(f, w)
	if err != nil {
		return nil, err
	}
	a := append(append(append([]any{}, scoreArgs...), match), args...)
	rows, err := s.db.QueryContext(ctx, `WITH hits AS (SELECT rowid AS rid, `+score+` AS score FROM `+table+`
		WHERE `+table+` MATCH ? ORDER BY score DESC LIMIT `+fmt.Sprint(rankCap)+`)
		SELECT m.rid, hits.score FROM hits JOIN memory_meta m NOT INDEXED ON m.rid = hits.rid
		WHERE `+where+` ORDER BY hits.score DESC LIMIT ?`, append(a, depth)...)
	out, err := collectRanked(rows, err, what)
	if err != nil || len(out) >= depth {
		return out, err
	}
	var total int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM `+table+` WHERE `+table+` MATCH ? LIMIT `+
		fmt.Sprint(rankCap+1)+`)`, match).Scan(&total); err != nil {
		return nil, fmt.Errorf("memory: unable to search (%s): %w", what, err)
	}
	if total <= rankCap {
		return out, nil
	}
	rows, err = s.db.QueryContext(ctx, `SELECT m.rid, `+score+` AS score FROM `+table+` JOIN memory_meta m ON m.rid = `+table+`.rowid
		WHERE `+table+` MATCH ? AND `+where+` ORDER BY score DESC LIMIT ?`, append(a, depth)...)
	return collectRanked(rows, err, what)
}

// RankWords runs an FTS5 MATCH expression over the word index (title, body, aliases; CJK
// pre-segmented into bigrams) and returns the best depth rows by BM25. match must come from the
// safe builders (QuoteFTS, BuildFTSQuery): nothing a user typed may reach it unquoted. weights
// are the BM25 weights of the title, body and aliases columns.
func (s *Store) RankWords(ctx context.Context, match string, weights [3]float64, f Filter, w TimeWindow, depth int) ([]RankedRID, error) {
	return s.rankFTS(ctx, "words", "memory_fts", "-bm25(memory_fts, ?, ?, ?)", []any{weights[0], weights[1], weights[2]}, match, f, w, depth)
}

// RankTrigrams runs an FTS5 MATCH expression over the trigram index (substrings of three or
// more characters) and returns the best depth rows by BM25.
func (s *Store) RankTrigrams(ctx context.Context, match string, f Filter, w TimeWindow, depth int) ([]RankedRID, error) {
	return s.rankFTS(ctx, "trigrams", "memory_fts_tri", "-bm25(memory_fts_tri)", nil, match, f, w, depth)
}

// RankSubstrings finds memories whose title or body contains any needle (a LIKE scan, for what
// neither index can express: a lone CJK character). The score counts the needles found; ties
// go to the newest.
func (s *Store) RankSubstrings(ctx context.Context, needles []string, f Filter, w TimeWindow, depth int) ([]RankedRID, error) {
	if len(needles) == 0 {
		return nil, nil
	}
	where, args, err := recallWhere(f, w)
	if err != nil {
		return nil, err
	}
	var hit []string
	var hargs []any
	for _, n := range needles {
		pat := "%" + escapeLike(n) + "%"
		hit = append(hit, `((m.title LIKE ? ESCAPE '\') OR (m.body LIKE ? ESCAPE '\'))`)
		hargs = append(hargs, pat, pat)
	}
	q := `SELECT rid, score FROM (SELECT m.rid AS rid, m.updated AS updated, (` + strings.Join(hit, " + ") + `) AS score
		FROM memory_meta m WHERE ` + where + `) WHERE score > 0 ORDER BY score DESC, updated DESC LIMIT ?`
	rows, err := s.db.QueryContext(ctx, q, append(append(hargs, args...), depth)...)
	return collectRanked(rows, err, "substrings")
}

// HydrateRIDs loads the memories behind rids that still pass f and w. Rows that are gone or
// fall outside the filter are simply absent from the map: a caller holding ids from an
// untrusted source (a vector backend) gets the local filter applied again.
func (s *Store) HydrateRIDs(ctx context.Context, rids []int64, f Filter, w TimeWindow) (map[int64]*Memory, error) {
	out := make(map[int64]*Memory, len(rids))
	if len(rids) == 0 {
		return out, nil
	}
	where, args, err := recallWhere(f, w)
	if err != nil {
		return nil, err
	}
	const chunk = 400
	for start := 0; start < len(rids); start += chunk {
		part := rids[start:min(start+chunk, len(rids))]
		ph := strings.Repeat("?,", len(part))
		a := make([]any, 0, len(part)+len(args))
		for _, r := range part {
			a = append(a, r)
		}
		// NOT INDEXED keeps SQLite on rowid lookups: with the filter's scope terms it would
		// otherwise walk a scope index, three times slower.
		rows, err := s.db.QueryContext(ctx, `SELECT `+metaColumnsM+` FROM memory_meta m NOT INDEXED WHERE m.rid IN (`+ph[:len(ph)-1]+`) AND `+where,
			append(a, args...)...)
		if err != nil {
			return nil, fmt.Errorf("memory: unable to load candidates: %w", err)
		}
		for rows.Next() {
			m, rid, err := scanMemory(rows)
			if err != nil {
				rows.Close()
				return nil, fmt.Errorf("memory: unable to scan candidate: %w", err)
			}
			out[rid] = m
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("memory: unable to load candidates: %w", err)
		}
	}
	return out, nil
}

// metaColumnsM is metaColumns qualified with the alias m.
var metaColumnsM = func() string {
	cols := strings.Split(metaColumns, ",")
	for i, c := range cols {
		cols[i] = "m." + strings.TrimSpace(c)
	}
	return strings.Join(cols, ", ")
}()

// RIDsOfIDs maps memory ids to index row ids; unknown ids are absent.
func (s *Store) RIDsOfIDs(ctx context.Context, ids []string) (map[string]int64, error) {
	out := make(map[string]int64, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	ph := strings.Repeat("?,", len(ids))
	a := make([]any, len(ids))
	for i, id := range ids {
		a[i] = id
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, rid FROM memory_meta WHERE id IN (`+ph[:len(ph)-1]+`)`, a...)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to map ids: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var rid int64
		if err := rows.Scan(&id, &rid); err != nil {
			return nil, fmt.Errorf("memory: unable to map ids: %w", err)
		}
		out[id] = rid
	}
	return out, rows.Err()
}

// TurnKey names one turn of a source session (Source.Session, Source.Turn).
type TurnKey struct {
	Session string
	Turn    int
}

// TurnRIDs finds the memories recorded from the given session turns. It applies no filter:
// load the rows through HydrateRIDs, which does. (Filtering here would steer SQLite away from
// the turn index and cost twenty times as much.)
func (s *Store) TurnRIDs(ctx context.Context, keys []TurnKey) (map[TurnKey]int64, error) {
	out := make(map[TurnKey]int64, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	const chunk = 300
	for start := 0; start < len(keys); start += chunk {
		part := keys[start:min(start+chunk, len(keys))]
		vals := strings.Repeat("(?,?),", len(part))
		a := make([]any, 0, 2*len(part))
		for _, k := range part {
			a = append(a, k.Session, k.Turn)
		}
		rows, err := s.db.QueryContext(ctx, `WITH want(s, t) AS (VALUES `+vals[:len(vals)-1]+`)
			SELECT want.s, want.t, m.rid FROM want JOIN memory_meta m
			ON json_extract(m.source, '$.session') = want.s AND json_extract(m.source, '$.turn') = want.t
			WHERE m.archived = 0`, a...)
		if err != nil {
			return nil, fmt.Errorf("memory: unable to find neighbouring turns: %w", err)
		}
		for rows.Next() {
			var k TurnKey
			var rid int64
			if err := rows.Scan(&k.Session, &k.Turn, &rid); err != nil {
				rows.Close()
				return nil, fmt.Errorf("memory: unable to scan turn: %w", err)
			}
			if _, dup := out[k]; !dup {
				out[k] = rid
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("memory: unable to find neighbouring turns: %w", err)
		}
	}
	return out, nil
}

// Access is how often and when a memory was last recalled.
type Access struct {
	Count int
	Last  time.Time
}

// AccessStats returns the recall counters of ids; ids never recalled are absent. The counters
// live in memory_access, keyed by id, and survive a reindex.
func (s *Store) AccessStats(ctx context.Context, ids []string) (map[string]Access, error) {
	out := make(map[string]Access, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	ph := strings.Repeat("?,", len(ids))
	a := make([]any, len(ids))
	for i, id := range ids {
		a[i] = id
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, access_count, last_access FROM memory_access WHERE id IN (`+ph[:len(ph)-1]+`)`, a...)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to read access counts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, last string
		var ac Access
		if err := rows.Scan(&id, &ac.Count, &last); err != nil {
			return nil, fmt.Errorf("memory: unable to read access counts: %w", err)
		}
		ac.Last, _ = time.Parse(time.RFC3339Nano, last)
		out[id] = ac
	}
	return out, rows.Err()
}

// TouchAccess counts one recall of each id at time at.
func (s *Store) TouchAccess(ctx context.Context, ids []string, at time.Time) error {
	if len(ids) == 0 || s.readOnly { // a read-only home is read, not counted
		return nil
	}
	vals := strings.Repeat("(?,1,?),", len(ids))
	a := make([]any, 0, 2*len(ids))
	ts := indexTime(at)
	for _, id := range ids {
		a = append(a, id, ts)
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO memory_access(id, access_count, last_access) VALUES `+vals[:len(vals)-1]+`
		ON CONFLICT(id) DO UPDATE SET access_count = access_count + 1, last_access = excluded.last_access`, a...); err != nil {
		return fmt.Errorf("memory: unable to count access: %w", err)
	}
	return nil
}

// ShadowedSlugs reports which of slugs also name a live memory of the project at workdir: such
// a project entry shadows the global one with the same slug.
func (s *Store) ShadowedSlugs(ctx context.Context, workdir string, slugs []string) (map[string]bool, error) {
	out := map[string]bool{}
	if workdir == "" || len(slugs) == 0 {
		return out, nil
	}
	wd, err := CanonicalWorkdir(workdir)
	if err != nil {
		return nil, err
	}
	ph := strings.Repeat("?,", len(slugs))
	a := []any{ProjectKey(wd)}
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
	where, args, err := f.where()
	if err != nil {
		return nil, err
	}
	shadow, sargs := "", []any(nil)
	if shadowWorkdir != "" {
		wd, err := CanonicalWorkdir(shadowWorkdir)
		if err != nil {
			return nil, err
		}
		shadow = ` AND NOT (m.scope = 'global' AND EXISTS (SELECT 1 FROM memory_meta p WHERE p.scope = 'project'
			AND p.scope_key = ? AND p.slug = m.slug AND p.archived = 0))`
		sargs = []any{ProjectKey(wd)}
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

// ScanMemories calls fn for every memory passing f (archived or not as f says), in index
// order, until fn returns false or ctx ends. With trigram set (a literal of three or more
// characters), only memories whose text contains it are visited.
func (s *Store) ScanMemories(ctx context.Context, f Filter, trigram string, fn func(*Memory) bool) error {
	where, args, err := f.where()
	if err != nil {
		return err
	}
	q := `SELECT ` + metaColumnsM + ` FROM memory_meta m WHERE ` + where + ` ORDER BY m.rid`
	if trigram != "" {
		q = `SELECT ` + metaColumnsM + ` FROM memory_fts_tri JOIN memory_meta m ON m.rid = memory_fts_tri.rowid
			WHERE memory_fts_tri MATCH ? AND ` + where + ` ORDER BY m.rid`
		args = append([]any{QuoteFTS(trigram)}, args...)
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("memory: unable to scan memories: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		m, _, err := scanMemory(rows)
		if err != nil {
			return fmt.Errorf("memory: unable to scan memory: %w", err)
		}
		if !fn(m) {
			return nil
		}
	}
	return rows.Err()
}

// QuoteFTS makes s one FTS5 string literal (a phrase): wrapped in double quotes, inner quotes
// doubled. Whatever s holds, the result is never FTS5 syntax.
func QuoteFTS(s string) string { return quoteFTS(s) }

// VectorTodo is a memory whose vector is missing or stale for a model.
type VectorTodo struct {
	RID      int64
	ID       string
	Version  string
	Scope    Scope
	ScopeKey string
	Type     Type
	Title    string
	Body     string
	Tags     []string
}

// StaleVectors lists up to limit live memories that have no vector of model or whose vector
// was computed from another version of their text.
func (s *Store) StaleVectors(ctx context.Context, model string, limit int) ([]VectorTodo, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT m.rid, m.id, m.version, m.scope, m.scope_key, m.type, m.title, m.body, m.tags FROM memory_meta m
		LEFT JOIN memory_vec v ON v.rid = m.rid
		WHERE m.archived = 0 AND (v.rid IS NULL OR v.model <> ? OR v.content_version <> m.version)
		ORDER BY m.rid LIMIT ?`, model, limit)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to list stale vectors: %w", err)
	}
	defer rows.Close()
	var out []VectorTodo
	for rows.Next() {
		var t VectorTodo
		var tags, scope, typ string
		if err := rows.Scan(&t.RID, &t.ID, &t.Version, &scope, &t.ScopeKey, &typ, &t.Title, &t.Body, &tags); err != nil {
			return nil, fmt.Errorf("memory: unable to list stale vectors: %w", err)
		}
		t.Tags = splitJSONList(tags)
		t.Scope, t.Type = Scope(scope), Type(typ)
		out = append(out, t)
	}
	return out, rows.Err()
}

// VectorCounts returns how many live memories have a current vector of model, and how many
// live memories there are.
func (s *Store) VectorCounts(ctx context.Context, model string) (done, total int, err error) {
	err = s.db.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN v.rid IS NOT NULL AND v.model = ?
		AND v.content_version = m.version THEN 1 ELSE 0 END), 0) FROM memory_meta m LEFT JOIN memory_vec v ON v.rid = m.rid
		WHERE m.archived = 0`, model).Scan(&total, &done)
	if err != nil {
		return 0, 0, fmt.Errorf("memory: unable to count vectors: %w", err)
	}
	return done, total, nil
}

// VectorRow is one computed vector, tied to the version of the text it was computed from.
type VectorRow struct {
	RID     int64
	Version string
	Vec     []byte
	Dim     int
}

// PutVectors stores vectors of model. A row whose memory changed or vanished since its text
// was read is skipped (its next version will be embedded); the count stored is returned.
func (s *Store) PutVectors(ctx context.Context, model string, rows []VectorRow) (int, error) {
	if len(rows) == 0 {
		return 0, nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("memory: unable to begin vector write: %w", err)
	}
	defer tx.Rollback()
	n := 0
	for _, r := range rows {
		res, err := tx.ExecContext(ctx, `INSERT INTO memory_vec(rid, model, dim, vec, content_version)
			SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM memory_meta WHERE rid = ? AND version = ?)
			ON CONFLICT(rid) DO UPDATE SET model = excluded.model, dim = excluded.dim, vec = excluded.vec,
			content_version = excluded.content_version`, r.RID, model, r.Dim, r.Vec, r.Version, r.RID, r.Version)
		if err != nil {
			return 0, fmt.Errorf("memory: unable to store vector: %w", err)
		}
		if k, _ := res.RowsAffected(); k > 0 {
			n++
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("memory: unable to commit vectors: %w", err)
	}
	return n, nil
}

// VectorEntry is one stored vector with what a pre-filter needs to know of its memory.
type VectorEntry struct {
	RID      int64
	ID       string
	Scope    Scope
	ScopeKey string
	Type     Type
	Archived bool
	Reviewed bool
	Vec      []byte
}

// ScanVectors calls fn for each stored vector of model (all of them when rids is nil, else
// those of rids).
func (s *Store) ScanVectors(ctx context.Context, model string, rids []int64, fn func(VectorEntry)) error {
	q := `SELECT v.rid, m.id, m.scope, m.scope_key, m.type, m.archived, m.reviewed, v.vec FROM memory_vec v
		JOIN memory_meta m ON m.rid = v.rid WHERE v.model = ? AND v.content_version = m.version`
	args := []any{model}
	if rids != nil {
		if len(rids) == 0 {
			return nil
		}
		ph := strings.Repeat("?,", len(rids))
		q += ` AND v.rid IN (` + ph[:len(ph)-1] + `)`
		for _, r := range rids {
			args = append(args, r)
		}
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("memory: unable to read vectors: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var e VectorEntry
		var scope, typ string
		if err := rows.Scan(&e.RID, &e.ID, &scope, &e.ScopeKey, &typ, &e.Archived, &e.Reviewed, &e.Vec); err != nil {
			return fmt.Errorf("memory: unable to read vector: %w", err)
		}
		e.Scope, e.Type = Scope(scope), Type(typ)
		fn(e)
	}
	return rows.Err()
}

// VectorLogHead returns the newest and oldest sequence numbers of the vector change log.
func (s *Store) VectorLogHead(ctx context.Context) (newest, oldest int64, err error) {
	// Two subqueries: SQLite answers a lone MAX or MIN from the primary key, not both at once.
	err = s.db.QueryRowContext(ctx, `SELECT COALESCE((SELECT MAX(seq) FROM recall_vec_log), 0),
		COALESCE((SELECT MIN(seq) FROM recall_vec_log), 0)`).Scan(&newest, &oldest)
	if err != nil {
		return 0, 0, fmt.Errorf("memory: unable to read vector log: %w", err)
	}
	return newest, oldest, nil
}

// VectorChangesSince lists the row ids whose vector changed after seq, and the newest seq.
func (s *Store) VectorChangesSince(ctx context.Context, seq int64, limit int) ([]int64, int64, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT seq, rid FROM recall_vec_log WHERE seq > ? ORDER BY seq LIMIT ?`, seq, limit)
	if err != nil {
		return nil, seq, fmt.Errorf("memory: unable to read vector log: %w", err)
	}
	defer rows.Close()
	var rids []int64
	seen := map[int64]bool{}
	for rows.Next() {
		var rid int64
		if err := rows.Scan(&seq, &rid); err != nil {
			return nil, seq, fmt.Errorf("memory: unable to read vector log: %w", err)
		}
		if !seen[rid] {
			seen[rid] = true
			rids = append(rids, rid)
		}
	}
	return rids, seq, rows.Err()
}

// PruneVectorLog drops change-log rows older than keep newest ones.
func (s *Store) PruneVectorLog(ctx context.Context, keep int64) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM recall_vec_log WHERE seq <= (SELECT COALESCE(MAX(seq), 0) FROM recall_vec_log) - ?`, keep); err != nil {
		return fmt.Errorf("memory: unable to prune vector log: %w", err)
	}
	return nil
}

// Matcher is a Filter prepared for checking rows in memory (a vector cache pre-filter); it
// mirrors the SQL filter, and results are filtered again in SQL when hydrated.
type Matcher struct {
	f          Filter
	projectKey string
}

// Matcher prepares f for Allows.
func (f Filter) Matcher() (Matcher, error) {
	m := Matcher{f: f}
	if f.Scope != "" && !f.Scope.Valid() {
		return m, codeErr(CodeInvalidScope, map[string]any{"Scope": string(f.Scope)}, "invalid scope %q", f.Scope)
	}
	if f.Workdir != "" {
		wd, err := CanonicalWorkdir(f.Workdir)
		if err != nil {
			return m, err
		}
		m.projectKey = ProjectKey(wd)
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

func splitJSONList(s string) []string {
	var out []string
	s = strings.TrimSpace(s)
	if s == "" || s == "[]" {
		return nil
	}
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		return nil
	}
	return out
}

// WordDocCount counts the memories whose word index matches an FTS5 expression (built with
// QuoteFTS): the document frequency recall weighs a query word by.
func (s *Store) WordDocCount(ctx context.Context, match string) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM memory_fts WHERE memory_fts MATCH ?`, match).Scan(&n); err != nil {
		return 0, fmt.Errorf("memory: unable to count matches: %w", err)
	}
	return n, nil
}

// IndexSizeHint is an upper bound on the number of indexed memories (the largest row id),
// cheap enough to read on every search.
func (s *Store) IndexSizeHint(ctx context.Context) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT COALESCE(MAX(rid), 0) FROM memory_meta`).Scan(&n); err != nil {
		return 0, fmt.Errorf("memory: unable to size the index: %w", err)
	}
	return n, nil
}

// RecentWords is RankWords for a query so broad that scoring every match would cost more than
// it tells: the newest depth matches (by row id, which the FTS index walks in order and stops
// early), all scored 1.
func (s *Store) RecentWords(ctx context.Context, match string, f Filter, w TimeWindow, depth int) ([]RankedRID, error) {
	if strings.TrimSpace(match) == "" {
		return nil, nil
	}
	where, args, err := recallWhere(f, w)
	if err != nil {
		return nil, err
	}
	q := `SELECT m.rid, 1.0 FROM memory_fts JOIN memory_meta m ON m.rid = memory_fts.rowid
		WHERE memory_fts MATCH ? AND ` + where + ` ORDER BY memory_fts.rowid DESC LIMIT ?`
	rows, err := s.db.QueryContext(ctx, q, append(append([]any{match}, args...), depth)...)
	return collectRanked(rows, err, "recent words")
}
