package memory

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"sort"
	"strings"
	"unicode"

	"engram/backend/text"
)

// The lean index (issue 14, migration 12). A body is stored once, in memory_meta; the two
// full-text tables are contentless (content = '', contentless_delete = 1): they hold only their
// index, and each row is replaced or removed by rowid in the same transaction as its
// memory_meta row (upsertText, deleteRowByRID). Because they keep no text, FTS5's own
// 'rebuild' command cannot refill them; RebuildFullText does, from memory_meta, without
// reading a file. FullTextCheck runs FTS5's 'integrity-check' on both.
//
// The trigram index was 60% of the index and stored every body a third time; substring search
// earns its size on what is short and name-like — titles, slugs, aliases and tags — and on
// short bodies (what agents write: a sentence or two). A longer body is found through the word
// index (whole words, stems, prefixes and CJK bigram phrases, which also match any Chinese
// substring of two characters or more), and grep reads it directly (ScanMemories).

// trigramBodyMax is the longest body (in bytes) the trigram index holds: a sentence or two,
// what agents write. Measured on LoCoMo (every turn is short): with no body in the trigram
// index at all, R@10 stays .867 and MRR moves .662 → .661, and the Chinese/English parity
// check is unchanged; bodies are what made it 60% of the index.
const trigramBodyMax = 256

// wordColumns are the word index's three columns for m: CJK runs pre-segmented into
// overlapping bigrams, since FTS5's tokenizers have no Chinese word breaking, and the body
// followed by the characters no token begins with (text.SegmentCJKDoc), so that every CJK
// character of the memory begins a token and a lone one is found as a prefix. Each column is
// then the list of its tokens, folded and stemmed (text.WordTokens): since schema 21 the table
// only splits at spaces, and the readers that parse files beside the index's single writer do
// the tokenizer's work.
func wordColumns(m *Memory) (title, body, aliases string) {
	names := strings.Join(append(append([]string{}, m.Aliases...), m.Tags...), " ")
	segs, finals := text.SegmentCJKDoc(m.Title+" "+m.Slug, m.Body, names)
	return text.WordTokens(segs[0]), text.WordTokens(segs[1] + finals), text.WordTokens(segs[2])
}

// trigramText is what the trigram index holds for m: title, slug, aliases and tags, and the
// body when it is short.
func trigramText(m *Memory) string {
	names := strings.Join(append(append([]string{}, m.Aliases...), m.Tags...), " ")
	t := m.Title + "\n" + m.Slug + "\n" + names
	if len(m.Body) <= trigramBodyMax {
		t += "\n" + m.Body
	}
	return t
}

// fullText is what m's rows of the two full-text tables hold (wordColumns, trigramText),
// worked out apart from the insert so that a reconcile's readers can do it off the writer.
type fullText struct{ title, body, aliases, tri string }

func fullTextOf(m *Memory) fullText {
	title, body, aliases := wordColumns(m)
	return fullText{title, body, aliases, trigramText(m)}
}

// insertFullText writes m's rows of both full-text tables (after any old ones were removed).
func insertFullText(ctx context.Context, x execer, rid int64, m *Memory, ft fullText) error {
	if _, err := x.ExecContext(ctx, `INSERT INTO memory_fts(rowid, title, body, aliases) VALUES(?,?,?,?)`,
		rid, ft.title, ft.body, ft.aliases); err != nil {
		return fmt.Errorf("memory: unable to index text of %s: %w", m.Path, err)
	}
	if _, err := x.ExecContext(ctx, `INSERT INTO memory_fts_tri(rowid, text) VALUES(?,?)`, rid, ft.tri); err != nil {
		return fmt.Errorf("memory: unable to index trigrams of %s: %w", m.Path, err)
	}
	return nil
}

// clearFullTextQueries empty both full-text tables: 'delete-all' drops a contentless table's
// index at once, where DELETE would write a tombstone per row.
var clearFullTextQueries = []string{
	`INSERT INTO memory_fts(memory_fts) VALUES('delete-all')`,
	`INSERT INTO memory_fts_tri(memory_fts_tri) VALUES('delete-all')`,
}

// RebuildFullText refills both full-text tables from memory_meta in one transaction: the
// contentless tables' stand-in for FTS5's 'rebuild' (after a tokenizer change, or when
// FullTextCheck finds them damaged). Readers see the old tables until it commits.
func (s *Store) RebuildFullText(ctx context.Context) error {
	return s.withLock(func() error {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("memory: unable to begin full-text rebuild: %w", err)
		}
		defer tx.Rollback()
		for _, q := range clearFullTextQueries {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("memory: unable to clear full-text index: %w", err)
			}
		}
		// Every row again, and optimizeIndex merges once after: merges wait (holdMerges).
		if _, err := holdMerges(ctx, tx, true); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT `+metaColumns+` FROM memory_meta ORDER BY rid`)
		if err != nil {
			return fmt.Errorf("memory: unable to read the index: %w", err)
		}
		var all []*Memory
		var rids []int64
		for rows.Next() {
			m, rid, err := scanMemory(rows)
			if err != nil {
				rows.Close()
				return fmt.Errorf("memory: unable to read the index: %w", err)
			}
			all, rids = append(all, m), append(rids, rid)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("memory: unable to read the index: %w", err)
		}
		for i, m := range all {
			if err := insertFullText(ctx, tx, rids[i], m, fullTextOf(m)); err != nil {
				return err
			}
		}
		if err := releaseMerges(ctx, tx, true); err != nil {
			return err
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("memory: unable to commit full-text rebuild: %w", err)
		}
		s.optimizeIndex(ctx, true)
		return nil
	})
}

// FullTextCheck runs FTS5's integrity-check on both full-text tables: nil when each index is
// internally consistent (a contentless table has no content to compare it with).
func (s *Store) FullTextCheck(ctx context.Context) error {
	for _, t := range []string{"memory_fts", "memory_fts_tri"} {
		if _, err := s.db.ExecContext(ctx, `INSERT INTO `+t+`(`+t+`) VALUES('integrity-check')`); err != nil {
			return fmt.Errorf("memory: full-text index %s is damaged: %w", t, err)
		}
	}
	return nil
}

// optimize runs at close and (optimizeIndex) after a bulk build: PRAGMA optimize gathers the
// statistics the query planner lacks (after a build for every table, 0x10002, not only those
// the connection used), and does nothing when they are current; analysis_limit bounds its
// sampling so that it costs milliseconds at 100k memories. Best effort: a busy or read-only
// index skips it.
func (s *Store) optimize(ctx context.Context) { s.optimizeIndex(ctx, false) }

// optimizeIndex is optimize; after a bulk build (vacuum) it also merges each full-text table
// into one segment and hands the pages the rebuild freed (the old index's, the merged
// full-text segments') back to the file system, in an
// index created with incremental auto-vacuum (newIndexPageSize); an older one keeps them for
// reuse.
func (s *Store) optimizeIndex(ctx context.Context, vacuum bool) {
	if s.db == nil || s.readOnly {
		return
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return
	}
	defer conn.Close()
	// At close, the tables this connection used; after a bulk build, every table.
	pragma := `PRAGMA optimize`
	if vacuum {
		pragma = `PRAGMA optimize = 0x10002`
	}
	if _, err := conn.ExecContext(ctx, `PRAGMA analysis_limit = 400`); err == nil {
		_, _ = conn.ExecContext(ctx, pragma)
	}
	if vacuum {
		// A bulk build leaves each full-text table as a stack of segments that automerge only
		// partly merged: one segment holds every term once, which takes 7% less room (the index
		// stays within twice the Markdown at 100k realistic notes) and one b-tree lookup per
		// term instead of one per segment. It costs the build about 3% more time.
		for _, t := range []string{"memory_fts", "memory_fts_tri"} {
			_, _ = conn.ExecContext(ctx, `INSERT INTO `+t+`(`+t+`) VALUES('optimize')`)
		}
		_, _ = conn.ExecContext(ctx, `PRAGMA incremental_vacuum`)
	}
}

// afterBulkBuild compacts the index after a walk that indexed many files (the first open of a
// folder of notes, a sync that brought thousands): it was built in bulk as a reindex is.
func (s *Store) afterBulkBuild(ctx context.Context, rep ReconcileReport) {
	if rep.bulk || rep.Added+rep.Updated >= s.bulkRows {
		s.optimizeIndex(ctx, true)
	}
}

// holdMerges stops FTS5's incremental merging in a transaction that indexes many files (on):
// the segments it flushes then stay as they are until the one merge after the build
// (optimizeIndex), which would write every term again anyway — merging them level by level
// as they come as well rewrote each one three or four times (a third of the writer's time
// in the profile of a 30k build). crisismerge, which merges a level regardless once it holds
// that many segments, is raised to FTS5's most. Both settings live in the tables' config
// rows, written in the transaction: a build that fails or is cut short rolls them back with
// everything else, and releaseMerges puts the defaults back before it commits.
func holdMerges(ctx context.Context, tx *sql.Tx, on bool) (bool, error) {
	if !on {
		return false, nil
	}
	return true, setMerges(ctx, tx, 0, 1999)
}

// releaseMerges puts FTS5's default merge settings back in a transaction that held them.
func releaseMerges(ctx context.Context, tx *sql.Tx, held bool) error {
	if !held {
		return nil
	}
	return setMerges(ctx, tx, 4, 16)
}

func setMerges(ctx context.Context, tx *sql.Tx, automerge, crisis int) error {
	for _, t := range []string{"memory_fts", "memory_fts_tri"} {
		for _, kv := range []struct {
			key string
			val int
		}{{"automerge", automerge}, {"crisismerge", crisis}} {
			if _, err := tx.ExecContext(ctx, `INSERT INTO `+t+`(`+t+`, rank) VALUES(?, ?)`, kv.key, kv.val); err != nil {
				return fmt.Errorf("memory: unable to set %s of %s: %w", kv.key, t, err)
			}
		}
	}
	return nil
}

// bulkBuildRows is how many files a reconcile must index to count as a bulk build: below it
// the merge (a few tens of ms per thousand memories) is not worth a reconcile's time.
const bulkBuildRows = 2000

// grepLongBodies is the part of ScanMemories' prefilter the trigram index cannot answer: a
// memory whose body is too long for it qualifies when its body holds lit. SQLite's LIKE folds
// ASCII case only (the trigram tokenizer folds all), so a literal with other cased letters
// keeps every long body and leaves the match to the caller.
func grepLongBodies(lit string) (string, []any) {
	cond := `octet_length(m.body) > ` + fmt.Sprint(trigramBodyMax)
	for _, r := range lit {
		if r > unicode.MaxASCII && unicode.ToLower(r) != unicode.ToUpper(r) {
			return cond, nil
		}
	}
	return cond + ` AND m.body LIKE ? ESCAPE '\'`, []any{"%" + escapeLike(lit) + "%"}
}

// TableSize is one table's share of the index file.
type TableSize struct {
	Name  string
	Bytes int64
}

// TableSizes sums the index's pages per table (its indexes, and a full-text table's shadow
// tables, counted under it), largest first, from SQLite's dbstat table: what the benchmarks
// report to show where the index's bytes go.
func (s *Store) TableSizes(ctx context.Context) ([]TableSize, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT COALESCE(m.tbl_name, d.name), SUM(d.pgsize) FROM dbstat d
		LEFT JOIN sqlite_master m ON m.name = d.name GROUP BY 1`)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to size the tables: %w", err)
	}
	defer rows.Close()
	sums := map[string]int64{}
	for rows.Next() {
		var name string
		var n int64
		if err := rows.Scan(&name, &n); err != nil {
			return nil, fmt.Errorf("memory: unable to size the tables: %w", err)
		}
		for _, fts := range []string{"memory_fts_tri", "memory_fts"} {
			if strings.HasPrefix(name, fts+"_") {
				name = fts
				break
			}
		}
		sums[name] += n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("memory: unable to size the tables: %w", err)
	}
	out := make([]TableSize, 0, len(sums))
	for name, n := range sums {
		out = append(out, TableSize{name, n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Bytes > out[j].Bytes })
	return out, nil
}

// indexPageSize is the page size of a new index. A memory row with its body (typically
// 0.5–3 KB) goes to a new page when it does not fit in what is left of the last one, which
// left unused 27% of memory_meta's 4 KiB pages on the 50–400-word bench corpus, 7% of 16 KiB
// pages (14.3 MiB at 100k notes) and 3.5% of 32 KiB ones (6.9 MiB). 32 KiB pages were tried
// and not kept: every write of one memory touches ~30 pages (its row, the full-text segments,
// the indexes, the audit), so the write-ahead log took ~1 MB per memory instead of ~0.5, and
// a fresh home's index doubled to 2 MB (faults.TestDiskFull had no room left for one memory
// on a 3 MB disk) — for 2% of the index at 100k.
const indexPageSize = 16384

// newIndexPageSize gives an index that has no page yet (privateFile created it empty) its page
// size and incremental auto-vacuum (so that a rebuild can hand back the pages it freed, see
// optimize), before the connections' journal_mode(WAL) fixes it (the driver applies its pragmas
// in alphabetical order, so page_size cannot simply be one of them). An existing index keeps
// its page size.
func newIndexPageSize(path string) error {
	if info, err := os.Stat(path); err != nil || info.Size() > 0 {
		return nil
	}
	db, err := sql.Open("sqlite", sqliteURI(path)+"?_pragma=busy_timeout(15000)")
	if err != nil {
		return fmt.Errorf("memory: unable to open index: %w", err)
	}
	defer db.Close()
	conn, err := db.Conn(context.Background())
	if err != nil {
		return fmt.Errorf("memory: unable to open index %s: %w", path, err)
	}
	defer conn.Close()
	for _, q := range []string{fmt.Sprintf(`PRAGMA page_size = %d`, indexPageSize), `PRAGMA auto_vacuum = INCREMENTAL`,
		`PRAGMA journal_mode = WAL`} {
		if _, err := conn.ExecContext(context.Background(), q); err != nil {
			return fmt.Errorf("memory: unable to prepare index %s: %w", path, err)
		}
	}
	return nil
}

// metaIndex is one of memory_meta's secondary indexes or triggers, with the statement that
// makes it.
type metaIndex struct{ kind, name, sql string }

// dropMetaIndexes removes memory_meta's secondary indexes (those a migration created; the
// UNIQUE one on id and memory_meta_path, which keeps paths unique, stay: the build looks rows
// up by them, and the path triggers would scan the table without it) for a full rebuild, which
// puts them back with createMetaIndexes once every row is in. Kept up row by row, each index
// took its share of the writer's time and was left with pages 80% full; built at once from
// the finished table, it is sorted once and packed. The triggers that keep paths unique go too:
// a table with a trigger gives every insert a statement journal, and FTS5 flushes the text
// pending in the transaction at each one (the 100k cold build went 9–13 s → 16 s with them);
// the build keeps paths unique itself (upsertText). Inside the rebuild's transaction, so
// readers keep the old indexes until it commits and a failure loses none.
func dropMetaIndexes(ctx context.Context, x execer) ([]metaIndex, error) {
	rows, err := x.QueryContext(ctx, `SELECT type, name, sql FROM sqlite_schema
		WHERE type IN ('index', 'trigger') AND tbl_name = 'memory_meta' AND sql IS NOT NULL AND name <> 'memory_meta_path'
		ORDER BY type, name`)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to list the index's indexes: %w", err)
	}
	var out []metaIndex
	for rows.Next() {
		var ix metaIndex
		if err := rows.Scan(&ix.kind, &ix.name, &ix.sql); err != nil {
			rows.Close()
			return nil, fmt.Errorf("memory: unable to list the index's indexes: %w", err)
		}
		out = append(out, ix)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("memory: unable to list the index's indexes: %w", err)
	}
	for _, ix := range out {
		drop := `DROP INDEX "`
		if ix.kind == "trigger" {
			drop = `DROP TRIGGER "`
		}
		if _, err := x.ExecContext(ctx, drop+strings.ReplaceAll(ix.name, `"`, `""`)+`"`); err != nil {
			return nil, fmt.Errorf("memory: unable to drop index %s: %w", ix.name, err)
		}
	}
	return out, nil
}

// createMetaIndexes puts back what dropMetaIndexes removed, with the same statements.
func createMetaIndexes(ctx context.Context, x execer, ixs []metaIndex) error {
	for _, ix := range ixs {
		if _, err := x.ExecContext(ctx, ix.sql); err != nil {
			return fmt.Errorf("memory: unable to create index %s: %w", ix.name, err)
		}
	}
	return nil
}
