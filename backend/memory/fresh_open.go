package memory

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"sort"
	"strings"
)

// With no watching process to answer for the index (fresh.go), an open scans every file's
// stamp. Most opens find nothing changed, and a one-shot CLI pays for that check on every call,
// so it is done apart from the reconcile: the scan's listing against the index's stamps, read
// in path order from the covering index memory_meta_path (migrations 15, 16) as one text column per
// row. The column count is what a row costs in the SQLite driver (each column read takes the
// connection's mutex several times), and the covering index keeps the scan off the table's
// pages, which hold the bodies. No transaction, no write lock, no plan: a difference of any
// kind — a file added, gone, renamed, or with another size, mtime, ctime or inode — or a
// stranded temp file sends the open to the full reconcile, with the same listing.

// stampSep separates a packed row's fields: a path may hold any byte but a NUL, the numbers
// only digits and "-", so the last four separators are found from the right.
const stampSep = '\t'

// packedStampsQuery lists memory_meta's paths and stamps in path order, one text per row.
const packedStampsQuery = `SELECT path || char(9) || mtime || char(9) || size || char(9) || ctime || char(9) || ino
	FROM memory_meta ORDER BY path`

// settleByScan brings the index in line with the files when no watcher vouched for it: the
// check first, the reconcile only when the check found a difference. The index's stamps are
// read on their own goroutine while the scan stats the files: on two cores the SQLite read
// (about a third of the work at 100k memories) then costs little of the wall time.
func (s *Store) settleByScan(ctx context.Context) (ReconcileReport, error) {
	type read struct {
		idx indexStamps
		err error
	}
	got := make(chan read, 1)
	go func() {
		idx, err := s.readStamps(ctx)
		got <- read{idx, err}
	}()
	disk, temps, err := s.scan()
	r := <-got
	if err != nil {
		return ReconcileReport{}, err
	}
	if r.err != nil {
		return ReconcileReport{}, r.err
	}
	if len(temps) == 0 && r.idx.matches(disk) {
		return ReconcileReport{Scanned: len(disk), Unchanged: len(disk)}, nil
	}
	s.listed = &scanListing{disk: disk, temps: temps}
	defer func() { s.listed = nil }()
	rep, err := s.reconcileLocked(ctx, nil)
	if err == nil {
		// The reconcile moved the stamps: the next open finds them saved (stamp_snapshot.go)
		// instead of reading them from the index once more.
		_, _ = s.readStamps(ctx)
	}
	return rep, err
}

// scanListing is a scan handed from the open's check to the reconcile that follows it.
type scanListing struct {
	disk  []diskFile
	temps []string
}

// takeListed returns the listing the open's check left for the reconcile, once: the open
// already scanned under the same lock (settleByScan).
func (s *Store) takeListed() (scanListing, bool) {
	l := s.listed
	if l == nil {
		return scanListing{}, false
	}
	s.listed = nil
	return *l, true
}

// indexStamps is what the index holds of each file, as the check reads it: memory_meta's rows
// packed (path and stamp, packedStampsQuery) in path order, copied into chunks of stampChunk
// bytes (one growing buffer copied itself over and over: a tenth of the open at 100k); and
// memory_problems' rows, sorted by path (usually none).
type indexStamps struct {
	chunks   [][]byte
	rows     []stampRow
	problems []indexedFile
}

// stampRow is where one packed row lies in indexStamps.chunks.
type stampRow struct{ chunk, start, end int32 }

const stampChunk = 1 << 20

// add copies one packed row in.
func (x *indexStamps) add(packed []byte) {
	n := len(x.chunks)
	if n == 0 || len(x.chunks[n-1])+len(packed) > cap(x.chunks[n-1]) {
		x.chunks = append(x.chunks, make([]byte, 0, max(stampChunk, len(packed))))
		n++
	}
	c := x.chunks[n-1]
	x.rows = append(x.rows, stampRow{chunk: int32(n - 1), start: int32(len(c)), end: int32(len(c) + len(packed))})
	x.chunks[n-1] = append(c, packed...)
}

func (x *indexStamps) row(i int) []byte {
	r := x.rows[i]
	return x.chunks[r.chunk][r.start:r.end]
}

// readStamps reads the index's side of the check.
func (s *Store) readStamps(ctx context.Context) (indexStamps, error) {
	var idx indexStamps
	var err error
	if idx.problems, err = s.problemStamps(ctx); err != nil {
		return idx, err
	}
	// The stamps come from an index, so the table itself is touched once here (its root and
	// rightmost leaf): damage there is found at open and repaired (recoverLocked), as when the
	// open read every row. Damage deeper in the table is doctor's (quick_check).
	var top sql.NullInt64
	if err := s.db.QueryRowContext(ctx, `SELECT max(rid) FROM memory_meta`).Scan(&top); err != nil {
		return idx, fmt.Errorf("memory: unable to read index: %w", err)
	}
	// The version and the rows are read in one transaction, so that a snapshot saved from
	// them is the index's at that version (stamp_snapshot.go).
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return idx, fmt.Errorf("memory: unable to list index: %w", err)
	}
	defer tx.Rollback()
	v, verr := stampVersion(ctx, tx)
	if verr == nil {
		if snap, ok := s.loadStamps(v); ok {
			s.stampSnapshots.Add(1)
			snap.problems = idx.problems
			return snap, nil
		}
	}
	rows, err := tx.QueryContext(ctx, packedStampsQuery)
	if err != nil {
		return idx, fmt.Errorf("memory: unable to list index: %w", err)
	}
	defer rows.Close()
	var packed sql.RawBytes
	for rows.Next() {
		if err := rows.Scan(&packed); err != nil {
			return idx, fmt.Errorf("memory: unable to scan index: %w", err)
		}
		idx.add(packed)
	}
	if err := rows.Err(); err != nil {
		return idx, fmt.Errorf("memory: unable to list index: %w", err)
	}
	if verr == nil {
		s.saveStamps(v, idx)
	}
	return idx, nil
}

// matches reports whether the index holds exactly the files of disk (sorted by path, as scan
// gives them) with the same stamps: every row of memory_meta and memory_problems has its
// file, every file its row, and no stamp differs — the reconcile's "nothing to do". Rows out
// of path order, or a row this build cannot read, count as a difference: the reconcile that
// follows sorts it out.
func (x indexStamps) matches(disk []diskFile) bool {
	i, p := 0, 0 // next file of disk, next row of problems
	// problemsBefore matches the problem rows that sort before path (all of them, with end).
	problemsBefore := func(path []byte, end bool) bool {
		for p < len(x.problems) && (end || x.problems[p].rel < string(path)) {
			if i >= len(disk) || disk[i].rel != x.problems[p].rel || disk[i].st != x.problems[p].st {
				return false
			}
			i, p = i+1, p+1
		}
		return true
	}
	for k := range x.rows {
		path, st, ok := unpackStamp(x.row(k))
		if !ok || !problemsBefore(path, false) {
			return false
		}
		if i >= len(disk) || disk[i].rel != string(path) || disk[i].st != st {
			return false
		}
		i++
	}
	return problemsBefore(nil, true) && i == len(disk)
}

// unpackStamp splits a row of packedStampsQuery; the path stays in the row's bytes (a string
// conversion in a comparison does not allocate).
func unpackStamp(b []byte) ([]byte, fileStamp, bool) {
	var n [4]int64
	end := len(b)
	for k := 3; k >= 0; k-- {
		at := end - 1
		for at >= 0 && b[at] != stampSep {
			at--
		}
		if at < 0 {
			return nil, fileStamp{}, false
		}
		v, ok := parseInt(b[at+1 : end])
		if !ok {
			return nil, fileStamp{}, false
		}
		n[k], end = v, at
	}
	return b[:end], fileStamp{mtime: n[0], size: n[1], ctime: n[2], ino: n[3]}, true
}

// parseInt reads SQLite's text of an integer: an optional "-" and decimal digits.
func parseInt(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 {
		return 0, false
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' || v > (math.MaxInt64-int64(c-'0'))/10 {
			return 0, false // past int64: not a stamp this build wrote
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}

// problemStamps lists memory_problems' paths and stamps sorted by path (usually none).
func (s *Store) problemStamps(ctx context.Context) ([]indexedFile, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT path, mtime, size, ctime, ino FROM memory_problems`)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to list problems: %w", err)
	}
	defer rows.Close()
	var out []indexedFile
	for rows.Next() {
		f := indexedFile{problem: true}
		if err := rows.Scan(&f.rel, &f.st.mtime, &f.st.size, &f.st.ctime, &f.st.ino); err != nil {
			return nil, fmt.Errorf("memory: unable to scan problems: %w", err)
		}
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return strings.Compare(out[i].rel, out[j].rel) < 0 })
	return out, rows.Err()
}
