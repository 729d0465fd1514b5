package memory

import (
	"context"
	"fmt"
	"math"
)

// Quota ladder levels, by the headroom of the tightest scope instance.
const (
	LevelNormal    = "normal"
	LevelNotice    = "notice"
	LevelDegraded  = "degraded"
	LevelCritical  = "critical"
	LevelExhausted = "exhausted"
)

// ExhaustedHeadroom is the headroom at which a scope is exhausted: new entries are refused once
// this many places or fewer are left.
const ExhaustedHeadroom = 5

// LadderLevel maps headroom to its level: normal > 100, notice ≤ 100, degraded ≤ 50,
// critical ≤ 20, exhausted ≤ 5.
func LadderLevel(headroom int) string {
	switch {
	case headroom <= ExhaustedHeadroom:
		return LevelExhausted
	case headroom <= 20:
		return LevelCritical
	case headroom <= 50:
		return LevelDegraded
	case headroom <= 100:
		return LevelNotice
	}
	return LevelNormal
}

var levelRank = map[string]int{LevelNormal: 0, LevelNotice: 1, LevelDegraded: 2, LevelCritical: 3, LevelExhausted: 4}

// ScopeQuota is the usage of one scope instance.
type ScopeQuota struct {
	Scope                Scope  `json:"scope"`
	Key                  string `json:"key"`
	Workdir              string `json:"workdir,omitempty"`
	Agent                string `json:"agent,omitempty"`
	Used                 int    `json:"used"`
	Limit                int    `json:"limit"`
	Headroom             int    `json:"headroom"`
	Level                string `json:"level"`
	Archived             int    `json:"archived"`
	Unreviewed           int    `json:"unreviewed"`
	OldestUnreviewedDays int    `json:"oldest_unreviewed_days"`
}

// QuotaSummary is every scope instance's usage plus the overall (tightest) level.
type QuotaSummary struct {
	Level  string       `json:"level"`
	Scopes []ScopeQuota `json:"scopes"`
}

// Quota summarises usage per scope instance; the global scope is always listed.
func (s *Store) Quota(ctx context.Context) (QuotaSummary, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT m.scope, m.scope_key, COALESCE(MAX(p.workdir), ''),
		SUM(CASE WHEN m.archived = 0 THEN 1 ELSE 0 END),
		SUM(CASE WHEN m.archived = 1 THEN 1 ELSE 0 END),
		SUM(CASE WHEN m.archived = 0 AND m.reviewed = 0 THEN 1 ELSE 0 END),
		MIN(CASE WHEN m.archived = 0 AND m.reviewed = 0 THEN m.created END)
		FROM memory_meta m LEFT JOIN projects p ON m.scope = 'project' AND p.key = m.scope_key
		WHERE m.type <> 'daily' GROUP BY m.scope, m.scope_key ORDER BY m.scope, m.scope_key`)
	if err != nil {
		return QuotaSummary{}, fmt.Errorf("memory: unable to summarise quota: %w", err)
	}
	defer rows.Close()
	sum := QuotaSummary{Level: LevelNormal}
	now := s.opts.Now()
	haveGlobal := false
	for rows.Next() {
		var q ScopeQuota
		var scope string
		var oldest metaStamp // NULL when the scope has nothing unreviewed
		if err := rows.Scan(&scope, &q.Key, &q.Workdir, &q.Used, &q.Archived, &q.Unreviewed, &oldest); err != nil {
			return QuotaSummary{}, fmt.Errorf("memory: unable to scan quota: %w", err)
		}
		q.Scope = Scope(scope)
		if q.Scope == ScopeAgent {
			q.Agent = q.Key
		}
		if q.Scope == ScopeGlobal {
			haveGlobal = true
		}
		if !oldest.t.IsZero() {
			q.OldestUnreviewedDays = int(math.Floor(now.Sub(oldest.t).Hours() / 24))
		}
		s.fillQuota(&q)
		sum.Scopes = append(sum.Scopes, q)
	}
	if err := rows.Err(); err != nil {
		return QuotaSummary{}, err
	}
	if !haveGlobal {
		q := ScopeQuota{Scope: ScopeGlobal}
		s.fillQuota(&q)
		sum.Scopes = append([]ScopeQuota{q}, sum.Scopes...)
	}
	for _, q := range sum.Scopes {
		if levelRank[q.Level] > levelRank[sum.Level] {
			sum.Level = q.Level
		}
	}
	return sum, nil
}

func (s *Store) fillQuota(q *ScopeQuota) {
	q.Limit = s.opts.QuotaLimit
	q.Headroom = q.Limit - q.Used
	q.Level = LadderLevel(q.Headroom)
}

// ScopeUsed counts the live ordinary entries of one scope instance (key: "" for global, the
// project key, or the agent name): what its quota is measured against.
func (s *Store) ScopeUsed(ctx context.Context, scope Scope, key string) (int, error) {
	return usedIn(ctx, s.db, scope, key)
}

// usedIn counts live ordinary entries in one scope instance, inside the writer's transaction
// so earlier items of the same batch are counted.
func usedIn(ctx context.Context, x execer, scope Scope, key string) (int, error) {
	var n int
	err := x.QueryRowContext(ctx, `SELECT COUNT(*) FROM memory_meta WHERE scope = ? AND scope_key = ?
		AND archived = 0 AND type <> 'daily'`, string(scope), key).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("memory: unable to count quota: %w", err)
	}
	return n, nil
}
