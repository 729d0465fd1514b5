package memory

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
)

// salvageBatch is how many rows one read of the damaged file asks for.
const salvageBatch = 256

// salvage copies, row by row, whatever is readable of the tables the files cannot rebuild from
// the damaged index at aside into the fresh index, and counts what was lost.
func (s *Store) salvage(ctx context.Context, aside string) ([]SalvagedTable, error) {
	tables, err := historyTables(ctx, s.db)
	if err != nil {
		return nil, err
	}
	src, cleanup, err := s.openDamaged(ctx, aside)
	if err != nil {
		// Nothing of it is readable: every history table is reported, nothing kept.
		s.log.Warn("memory: nothing could be salvaged from the damaged index", "err", err)
		out := make([]SalvagedTable, 0, len(tables))
		for _, t := range tables {
			out = append(out, SalvagedTable{Table: t.name, Lost: -1})
		}
		return out, nil
	}
	defer cleanup()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to begin salvage: %w", err)
	}
	defer tx.Rollback()
	out := make([]SalvagedTable, 0, len(tables))
	for _, t := range tables {
		out = append(out, salvageTable(ctx, src, tx, t.name, t.cols))
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("memory: unable to commit salvage: %w", err)
	}
	return out, nil
}

type tableCols struct {
	name string
	cols []string
}

// historyTables lists the fresh index's ordinary tables that are not derived from the files.
// Full-text tables (and their shadow tables) are derived too.
func historyTables(ctx context.Context, db *sql.DB) ([]tableCols, error) {
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table'
		AND name NOT LIKE 'sqlite\_%' ESCAPE '\' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to list tables: %w", err)
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return nil, err
		}
		if !derivedTables[n] && !strings.HasPrefix(n, "memory_fts") {
			names = append(names, n)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []tableCols
	for _, n := range names {
		cols, err := columns(ctx, db, n)
		if err != nil {
			return nil, err
		}
		out = append(out, tableCols{n, cols})
	}
	return out, nil
}

func columns(ctx context.Context, db interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, table string) ([]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT name FROM pragma_table_info(?)`, table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, err
		}
		cols = append(cols, c)
	}
	return cols, rows.Err()
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// salvageTable reads table from src in rowid order, a batch at a time; a read that hits a
// damaged page is retried further on, skipping ever larger rowid ranges, so the rows on
// readable pages are kept. Rows that the fresh schema refuses count as lost.
func salvageTable(ctx context.Context, src *sql.DB, dst *sql.Tx, table string, want []string) SalvagedTable {
	res := SalvagedTable{Table: table, Lost: -1}
	total := -1
	var n int
	if src.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+quoteIdent(table)).Scan(&n) == nil {
		total = n
	}
	// Only the columns both schemas have: the damaged file may be older than this build.
	have, err := columns(ctx, src, table)
	if err != nil || len(have) == 0 {
		return res
	}
	haveSet := map[string]bool{}
	for _, c := range have {
		haveSet[c] = true
	}
	var cols []string
	for _, c := range want {
		if haveSet[c] {
			cols = append(cols, quoteIdent(c))
		}
	}
	if len(cols) == 0 {
		return res
	}
	var maxRowid int64 = math.MaxInt64
	var mx sql.NullInt64
	if src.QueryRowContext(ctx, `SELECT MAX(rowid) FROM `+quoteIdent(table)).Scan(&mx) == nil && mx.Valid {
		maxRowid = mx.Int64
	}
	sel := `SELECT rowid, ` + strings.Join(cols, ", ") + ` FROM ` + quoteIdent(table) + ` WHERE rowid > ? ORDER BY rowid LIMIT ?`
	ins := `INSERT OR REPLACE INTO ` + quoteIdent(table) + `(` + strings.Join(cols, ", ") + `) VALUES(` +
		strings.TrimSuffix(strings.Repeat("?,", len(cols)), ",") + `)`
	last := int64(math.MinInt64)
	refused, damaged, skip := 0, false, 0
	for last < maxRowid {
		got, err := salvageBatchRows(ctx, src, dst, sel, ins, table, len(cols), &last, &res.Salvaged, &refused)
		if err == nil {
			skip = 0
			if got < salvageBatch {
				break
			}
			continue
		}
		damaged = true
		if skip > 62 {
			break
		}
		if last == math.MinInt64 {
			last = 0
		}
		step := int64(1) << skip
		if last > maxRowid-step {
			break
		}
		last += step
		skip++
	}
	switch {
	case total >= 0:
		res.Lost = max(total-res.Salvaged, 0)
	case !damaged:
		res.Lost = refused
	}
	return res
}

// salvageBatchRows copies one batch after *last; it returns how many rows it read.
func salvageBatchRows(ctx context.Context, src *sql.DB, dst *sql.Tx, sel, ins, table string, ncols int,
	last *int64, saved, refused *int) (int, error) {
	rows, err := src.QueryContext(ctx, sel, *last, salvageBatch)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	got := 0
	for rows.Next() {
		vals := make([]any, ncols+1)
		ptrs := make([]any, ncols+1)
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return got, err
		}
		got++
		if rid, ok := vals[0].(int64); ok {
			*last = rid
		}
		if table == "settings" && (vals[1] == "index.needs_reindex" || string(asBytes(vals[1])) == "index.needs_reindex") {
			*saved++ // a fresh index sets its own flag; this row is not lost
			continue
		}
		if _, err := dst.ExecContext(ctx, ins, vals[1:]...); err != nil {
			*refused++
			continue
		}
		*saved++
	}
	return got, rows.Err()
}

func asBytes(v any) []byte {
	switch t := v.(type) {
	case []byte:
		return t
	case string:
		return []byte(t)
	}
	return nil
}

// openDamaged opens the damaged index for reading. When even its schema cannot be read, a
// ruined 100-byte header ("file is not a database") may be all that is wrong: a copy with a
// rebuilt header is tried for each page size SQLite allows, so the tables behind it can still
// be read.
func (s *Store) openDamaged(ctx context.Context, aside string) (*sql.DB, func(), error) {
	open := func(path string) (*sql.DB, error) {
		// mode=ro, not immutable: committed rows still in the -wal must be read too.
		db, err := sql.Open("sqlite", sqliteURI(path)+"?mode=ro&_pragma=busy_timeout(5000)")
		if err != nil {
			return nil, fmt.Errorf("memory: unable to open the damaged index: %w", err)
		}
		db.SetMaxOpenConns(1)
		var n int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master`).Scan(&n); err != nil {
			db.Close()
			return nil, err
		}
		return db, nil
	}
	db, err := open(aside)
	if err == nil {
		return db, func() { db.Close() }, nil
	}
	if !IsCorrupt(err) {
		return nil, nil, err
	}
	data, rerr := os.ReadFile(aside)
	if rerr != nil || len(data) < 512 {
		return nil, nil, fmt.Errorf("memory: the damaged index cannot be read: %w", errors.Join(err, rerr))
	}
	patched := aside + ".salvage"
	cleanup := func() {
		for _, suffix := range []string{"", "-wal", "-shm"} {
			os.Remove(patched + suffix)
		}
	}
	wal, _ := os.ReadFile(aside + "-wal")
	sizes := []int{4096, 1024, 8192, 16384, 32768, 65536, 512}
	if len(wal) >= 32 { // the log's header names the page size
		if ps := int(binary.BigEndian.Uint32(wal[8:12])); ps >= 512 && ps <= 65536 {
			sizes = append([]int{ps}, sizes...)
		}
	}
	for _, ps := range sizes {
		if len(data)%ps != 0 {
			continue
		}
		copy(data[:100], freshHeader(ps, len(wal) > 0))
		cleanup()
		if os.WriteFile(patched, data, 0o600) != nil {
			break
		}
		if len(wal) > 0 {
			if os.WriteFile(patched+"-wal", wal, 0o600) != nil {
				break
			}
		}
		if db, err := open(patched); err == nil {
			s.log.Warn("memory: the damaged index's header was rebuilt to salvage its tables", "page_size", ps)
			return db, func() { db.Close(); cleanup() }, nil
		}
	}
	cleanup()
	return nil, nil, fmt.Errorf("memory: the damaged index cannot be read: %w", err)
}

// freshHeader is a database header for a file of pageSize pages, with nothing in it that could
// mislead a reader: no free list, the size taken from the file, UTF-8, schema format 4.
func freshHeader(pageSize int, wal bool) []byte {
	h := make([]byte, 100)
	copy(h, "SQLite format 3\x00")
	ps := uint16(pageSize)
	if pageSize == 65536 {
		ps = 1
	}
	binary.BigEndian.PutUint16(h[16:], ps)
	h[18], h[19] = 1, 1
	if wal {
		h[18], h[19] = 2, 2
	}
	h[21], h[22], h[23] = 64, 32, 32
	binary.BigEndian.PutUint32(h[24:], 1) // change counter; version-valid-for (92) left 0:
	binary.BigEndian.PutUint32(h[44:], 4) // so the in-header size is ignored for the file's
	binary.BigEndian.PutUint32(h[56:], 1)
	binary.BigEndian.PutUint32(h[96:], 3046000)
	return h
}
