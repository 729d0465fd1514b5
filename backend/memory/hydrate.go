package memory

import (
	"context"
	"fmt"
	"runtime"
	"strings"
)

// HydrateRIDs loads the memories behind rids that still pass f and w. Rows that are gone or
// fall outside the filter are simply absent from the map: a caller holding ids from an
// untrusted source (a vector backend) gets the local filter applied again. A long list is
// loaded in two halves at once, on two connections: a search waits for this step, and the
// other core is otherwise idle then.
func (s *Store) HydrateRIDs(ctx context.Context, rids []int64, f Filter, w TimeWindow) (map[int64]*Memory, error) {
	out := make(map[int64]*Memory, len(rids))
	if len(rids) == 0 {
		return out, nil
	}
	where, args, err := recallWhere(s.projects, f, w)
	if err != nil {
		return nil, err
	}
	if len(rids) < hydrateSplitFrom || runtime.GOMAXPROCS(0) < 2 {
		return out, s.hydrateInto(ctx, out, rids, where, args)
	}
	half := len(rids) / 2
	other := make(map[int64]*Memory, half)
	errc := make(chan error, 1)
	go func() { errc <- s.hydrateInto(ctx, other, rids[:half], where, args) }()
	err = s.hydrateInto(ctx, out, rids[half:], where, args)
	if oerr := <-errc; err == nil {
		err = oerr
	}
	if err != nil {
		return nil, err
	}
	for rid, m := range other {
		out[rid] = m
	}
	return out, nil
}

// hydrateSplitFrom is the list length from which HydrateRIDs loads two halves at once.
const hydrateSplitFrom = 64

// hydrateInto loads the rows of rids passing where into out.
func (s *Store) hydrateInto(ctx context.Context, out map[int64]*Memory, rids []int64, where string, args []any) error {
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
			return fmt.Errorf("memory: unable to load candidates: %w", err)
		}
		for rows.Next() {
			m, rid, err := scanMemory(rows)
			if err != nil {
				rows.Close()
				return fmt.Errorf("memory: unable to scan candidate: %w", err)
			}
			out[rid] = m
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return fmt.Errorf("memory: unable to load candidates: %w", err)
		}
	}
	return nil
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

// ScanMemories calls fn for every memory passing f (archived or not as f says), in index
// order, until fn returns false or ctx ends. With trigram set (a literal of three or more
// characters), only memories whose text contains it are visited.
func (s *Store) ScanMemories(ctx context.Context, f Filter, trigram string, fn func(*Memory) bool) error {
	where, args, err := f.where(s.projects)
	if err != nil {
		return err
	}
	q := `SELECT ` + metaColumnsM + ` FROM memory_meta m WHERE ` + where + ` ORDER BY m.rid`
	if trigram != "" {
		// The trigram index holds titles, names and short bodies only (lean.go); long bodies are
		// matched here.
		long, largs := grepLongBodies(trigram)
		q = `SELECT ` + metaColumnsM + ` FROM memory_meta m WHERE (m.rid IN (SELECT rowid FROM memory_fts_tri
			WHERE memory_fts_tri MATCH ?) OR (` + long + `)) AND ` + where + ` ORDER BY m.rid`
		args = append(append([]any{quoteFTS(trigram)}, largs...), args...)
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

// RowVersion is one row of the index as ListVersions gives it.
type RowVersion struct {
	RID     int64
	ID      string
	Version string
}

// ListVersions lists the rows f selects, in List's order and up to its limit, without
// loading them: a caller that keeps what it read of each version (recall's facet path)
// loads only the rows it has not read (LoadRIDs).
func (s *Store) ListVersions(ctx context.Context, f Filter) ([]RowVersion, error) {
	typ := f.Type
	if typ != "" && !typ.Valid() {
		return nil, codeErr(CodeInvalidType, map[string]any{"Type": string(typ)}, "invalid type %q", typ)
	}
	f.Type = ""
	where, args, err := f.where(s.projects)
	if err != nil {
		return nil, err
	}
	if typ != "" {
		// The type as a literal (it is one of the closed set Valid accepts): SQLite uses the
		// partial index of user memories only when the query names the type it is built on.
		where += " AND m.type = '" + string(typ) + "'"
	}
	limit, order := f.page()
	rows, err := s.db.QueryContext(ctx, `SELECT m.rid, m.id, m.version FROM memory_meta m WHERE `+where+`
		ORDER BY `+order+` LIMIT ? OFFSET ?`, append(args, limit, f.Offset)...)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to list versions: %w", err)
	}
	defer rows.Close()
	var out []RowVersion
	for rows.Next() {
		var v RowVersion
		if err := rows.Scan(&v.RID, &v.ID, &v.Version); err != nil {
			return nil, fmt.Errorf("memory: unable to scan version: %w", err)
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// LoadRIDs loads the rows of rids without a filter (the caller listed them through one);
// rows gone since are absent from the map.
func (s *Store) LoadRIDs(ctx context.Context, rids []int64) (map[int64]*Memory, error) {
	out := make(map[int64]*Memory, len(rids))
	if len(rids) == 0 {
		return out, nil
	}
	return out, s.hydrateInto(ctx, out, rids, "1", nil)
}
