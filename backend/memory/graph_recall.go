package memory

import (
	"context"
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
	for _, n := range norms {
		all = append(all, n)
	}
	all = append(all, hopStates, hopMentions, hopNeighbor)
	all = append(all, args...)
	all = append(all, depth)
	rows, err := s.db.QueryContext(ctx, q, all...)
	return collectRanked(rows, err, "graph hops")
}
