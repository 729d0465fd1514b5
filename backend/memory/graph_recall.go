package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// Scores of the graph hop (GraphHops): stating a relation of a named entity is the strongest
// tie, mentioning it next, mentioning one of its neighbours the weakest — a neighbour is one
// hop away and shares the named entity with many other memories.
const (
	hopStates   = 1.5
	hopMentions = 1.0
	hopNeighbor = 0.5
)

// MaxHopNames bounds the names one query may look up in the graph.
const MaxHopNames = 256

// GraphHops ranks the memories within one hop of the entities whose normalised names (see
// wikilink.Norm) are in norms: memories stating a relation of such an entity, mentioning it,
// or mentioning an entity it is related to. Recall calls it so that "what does Alice's team
// use" finds "[[Team X]] uses Postgres" when Alice is a member of Team X and nothing else
// matches. Only memories f and w let through are returned, so entities of other scopes,
// projects or agents reach nothing the caller may not see.
func (s *Store) GraphHops(ctx context.Context, norms []string, f Filter, w TimeWindow, depth int) ([]RankedRID, error) {
	if len(norms) == 0 || depth <= 0 {
		return nil, nil
	}
	if len(norms) > MaxHopNames {
		norms = norms[:MaxHopNames]
	}
	where, args, err := recallWhere(s.projects, f, w)
	if err != nil {
		return nil, err
	}
	marks := strings.TrimSuffix(strings.Repeat("?,", len(norms)), ",")
	names := make([]any, len(norms))
	for i, n := range norms {
		names[i] = n
	}
	// Most queries name no entity of the graph: one look-up on the entity index says so, and
	// the hop query (a fifth of a search's statement preparation at 100k memories) is skipped.
	var one int
	switch err := s.db.QueryRowContext(ctx, `SELECT 1 FROM graph_entities WHERE norm IN (`+marks+`) LIMIT 1`, names...).Scan(&one); {
	case errors.Is(err, sql.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("memory: unable to search (graph hops): %w", err)
	}
	q := `WITH named(id) AS (SELECT id FROM graph_entities WHERE norm IN (` + marks + `)),
		near(id) AS (
			SELECT dst FROM graph_relations WHERE src IN named
			UNION SELECT src FROM graph_relations WHERE dst IN named),
		hop(rid, score) AS (
			SELECT memory_rid, ? FROM graph_relations WHERE (src IN named OR dst IN named) AND memory_rid IS NOT NULL
			UNION ALL SELECT memory_rid, ? FROM graph_mentions WHERE entity IN named
			UNION ALL SELECT memory_rid, ? FROM graph_mentions WHERE entity IN near AND entity NOT IN named)
		SELECT m.rid, SUM(hop.score) AS score FROM hop JOIN memory_meta m ON m.rid = hop.rid
		WHERE ` + where + ` GROUP BY m.rid ORDER BY score DESC, m.updated DESC LIMIT ?`
	all := make([]any, 0, len(norms)+len(args)+4)
	all = append(all, names...)
	all = append(all, hopStates, hopMentions, hopNeighbor)
	all = append(all, args...)
	all = append(all, depth)
	rows, err := s.db.QueryContext(ctx, q, all...)
	return collectRanked(rows, err, "graph hops")
}
