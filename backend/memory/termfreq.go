package memory

import (
	"context"
	"fmt"
)

// WordDocFreq counts, for each term, the memories whose word index holds it, each count
// stopped at limit. Callers that search with a few words of a long text (extraction's
// candidate search) use it to keep the rare words that name a topic: counting stops early and
// reads no column sizes, where ranking a common word with BM25 scores every memory holding it.
// Each term goes through QuoteWords, so nothing in it is read as query syntax.
func (s *Store) WordDocFreq(ctx context.Context, terms []string, limit int) ([]int, error) {
	out := make([]int, len(terms))
	if len(terms) == 0 {
		return out, nil
	}
	q := `SELECT COUNT(*) FROM (SELECT 1 FROM memory_fts WHERE memory_fts MATCH ? LIMIT ` + fmt.Sprint(limit) + `)`
	stmt, err := s.db.PrepareContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("memory: unable to count words: %w", err)
	}
	defer stmt.Close()
	for i, t := range terms {
		m := QuoteWords(t)
		if m == "" {
			continue
		}
		if err := stmt.QueryRowContext(ctx, m).Scan(&out[i]); err != nil {
			return nil, fmt.Errorf("memory: unable to count words: %w", err)
		}
	}
	return out, nil
}
