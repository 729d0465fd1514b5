package memory

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"engram/backend/text"
)

// fulltext.go, hydrate.go, access.go, buckets.go, vectors.go and matcher.go hold the small
// accessors the recall and embed packages need over the index. The SQL stays here, next to the
// schema it depends on; the ranking itself lives in recall.

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
func recallWhere(ps *Projects, f Filter, w TimeWindow) (string, []any, error) {
	where, args, err := f.where(ps)
	if err != nil {
		return "", nil, err
	}
	if !w.IsZero() {
		lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
		if !w.Since.IsZero() {
			lo = metaTime(w.Since)
		}
		if !w.Until.IsZero() {
			hi = metaTime(w.Until)
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
	where, args, err := recallWhere(s.projects, f, w)
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
// safe builders (QuoteWords, BuildFTSQuery): nothing a user typed may reach it unquoted. weights
// are the BM25 weights of the title, body and aliases columns.
func (s *Store) RankWords(ctx context.Context, match string, weights [3]float64, f Filter, w TimeWindow, depth int) ([]RankedRID, error) {
	return s.rankFTS(ctx, "words", "memory_fts", "-bm25(memory_fts, ?, ?, ?)", []any{weights[0], weights[1], weights[2]}, match, f, w, depth)
}

// RankTrigrams runs an FTS5 MATCH expression over the trigram index (substrings of three or
// more characters) and returns the best depth rows by BM25.
func (s *Store) RankTrigrams(ctx context.Context, match string, f Filter, w TimeWindow, depth int) ([]RankedRID, error) {
	return s.rankFTS(ctx, "trigrams", "memory_fts_tri", "-bm25(memory_fts_tri)", nil, match, f, w, depth)
}

// RankSubstrings finds memories whose text holds any needle. The score counts the needles
// found; ties go to the newest. A lone CJK character is looked up in the word index, where every
// character of a memory begins one of its tokens (text.SegmentCJKDoc), as a prefix; anything
// else (a query of no word at all, "=>") is read from every row's title and body.
func (s *Store) RankSubstrings(ctx context.Context, needles []string, f Filter, w TimeWindow, depth int) ([]RankedRID, error) {
	if len(needles) == 0 {
		return nil, nil
	}
	where, args, err := recallWhere(s.projects, f, w)
	if err != nil {
		return nil, err
	}
	if lone := loneCharacters(needles); lone != nil {
		var hits []string
		var hargs []any
		for _, c := range lone {
			hits = append(hits, `SELECT rowid AS rid FROM memory_fts WHERE memory_fts MATCH ?`)
			hargs = append(hargs, QuoteWords(c)+"*")
		}
		// The matches are walked first and each looks its row up by id (CROSS JOIN keeps that
		// order, NOT INDEXED keeps the planner off the scope index).
		q := `SELECT m.rid, hits.score FROM (SELECT rid, COUNT(*) AS score FROM (` + strings.Join(hits, " UNION ALL ") + `) GROUP BY rid) hits
			CROSS JOIN memory_meta m NOT INDEXED ON m.rid = hits.rid WHERE ` + where + ` ORDER BY hits.score DESC, m.updated DESC LIMIT ?`
		rows, err := s.db.QueryContext(ctx, q, append(append(hargs, args...), depth)...)
		return collectRanked(rows, err, "characters")
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

// loneCharacters returns needles when each is one CJK character, distinct, else nil.
func loneCharacters(needles []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range needles {
		r, size := utf8.DecodeRuneInString(n)
		if size != len(n) || !text.IsCJK(r) {
			return nil
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// QuoteWords makes s one phrase of the word index (RankWords, WordDocCount; every MATCH on
// memory_fts is built from it): its tokens as the index holds them (text.WordTokens: folded and
// stemmed in Go, since schema 21 the table only splits at spaces), quoted. Whatever s holds,
// the result is never FTS5 syntax.
func QuoteWords(s string) string { return quoteFTS(text.WordTokens(s)) }

// QuotePhrase makes s one FTS5 string literal as it is, for a table that tokenizes it itself:
// the trigram index (RankTrigrams), or a plain FTS5 table. Never FTS5 syntax either.
func QuotePhrase(s string) string { return quoteFTS(s) }

// WordDocCount counts the memories whose word index matches an FTS5 expression (built with
// QuoteWords): the document frequency recall weighs a query word by.
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
	where, args, err := recallWhere(s.projects, f, w)
	if err != nil {
		return nil, err
	}
	q := `SELECT m.rid, 1.0 FROM memory_fts JOIN memory_meta m ON m.rid = memory_fts.rowid
		WHERE memory_fts MATCH ? AND ` + where + ` ORDER BY memory_fts.rowid DESC LIMIT ?`
	rows, err := s.db.QueryContext(ctx, q, append(append([]any{match}, args...), depth)...)
	return collectRanked(rows, err, "recent words")
}
