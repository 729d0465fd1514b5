//go:build bench

package bench

import (
	"context"
	"database/sql"
	"regexp"
	"strings"

	"engram/backend/memory"
)

// locomoBaseline is plain SQLite FTS5 BM25 (default unicode61 tokenizer, no stemming, no stop
// words) over "speaker: text" documents, queried with every word of the question OR'ed.
type locomoBaseline struct {
	db   *sql.DB
	docs []locomoDoc
}

func newLocomoBaseline(ctx context.Context, path string, docs []locomoDoc) (*locomoBaseline, error) {
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, `CREATE VIRTUAL TABLE f USING fts5(body)`); err != nil {
		db.Close()
		return nil, err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		db.Close()
		return nil, err
	}
	for i, d := range docs {
		if _, err := tx.ExecContext(ctx, `INSERT INTO f(rowid, body) VALUES(?, ?)`, i+1, d.speaker+": "+d.text); err != nil {
			tx.Rollback()
			db.Close()
			return nil, err
		}
	}
	if err := tx.Commit(); err != nil {
		db.Close()
		return nil, err
	}
	return &locomoBaseline{db: db, docs: docs}, nil
}

func (b *locomoBaseline) close() { b.db.Close() }

var reWord = regexp.MustCompile(`[\p{L}\p{N}]+`)

func (b *locomoBaseline) rank(ctx context.Context, q string, ev map[string]bool) (int, error) {
	var terms []string
	for _, w := range reWord.FindAllString(q, -1) {
		terms = append(terms, memory.QuotePhrase(w))
	}
	if len(terms) == 0 {
		return -1, nil
	}
	rows, err := b.db.QueryContext(ctx, `SELECT rowid FROM f WHERE f MATCH ? ORDER BY bm25(f) LIMIT 20`, strings.Join(terms, " OR "))
	if err != nil {
		return -1, err
	}
	defer rows.Close()
	i := 0
	for rows.Next() {
		var rid int
		if err := rows.Scan(&rid); err != nil {
			return -1, err
		}
		if rid >= 1 && rid <= len(b.docs) && ev[b.docs[rid-1].dia] {
			return i, nil
		}
		i++
	}
	return -1, rows.Err()
}
