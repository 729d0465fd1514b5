package memory

import (
	"context"
	"strings"
)

// SlugsNamed finds live memories whose slug is one of words or starts with it followed by a
// dash ("coffee", "coffee-habit"), in the scope instances f makes visible, at most limit. It
// is an index range per instance and word — microseconds where a title-column full-text query
// over a common word decodes that word's whole posting list (tens of milliseconds at 10k
// memories). Extraction calls it for the words of a turn too common to search bodies with: a
// memory titled "Coffee" is what a turn about coffee would update. Callers filter the rows
// through f again when they load them (type, review state).
func (s *Store) SlugsNamed(ctx context.Context, words []string, f Filter, limit int) ([]RankedRID, error) {
	if len(words) == 0 || limit <= 0 {
		return nil, nil
	}
	type inst struct {
		scope Scope
		key   string
		keyed bool
	}
	var insts []inst
	switch {
	case f.Scope != "":
		_, _, key, err := s.scopeKey(f.Scope, f.Workdir, f.Agent)
		keyed := err == nil
		if f.Scope == ScopeGlobal {
			keyed = true
		}
		insts = append(insts, inst{f.Scope, key, keyed})
	default:
		insts = append(insts, inst{ScopeGlobal, "", true})
		if f.Workdir != "" {
			key, err := s.projectKey(f.Workdir)
			if err != nil {
				return nil, err
			}
			insts = append(insts, inst{ScopeProject, key, true})
		}
		if f.Agent != "" {
			insts = append(insts, inst{ScopeAgent, f.Agent, true})
		}
	}
	var parts []string
	var args []any
	for _, in := range insts {
		for _, w := range words {
			w = strings.ToLower(strings.TrimSpace(w))
			if w == "" {
				continue
			}
			// Slugs hold [a-z0-9-] and Chinese characters (bytes ≥ 0x80), and '-' sorts just
			// before '.': [w, w.) holds exactly "w" and the slugs "w-…" — one index range.
			cond := `scope = ? AND slug >= ? AND slug < ?`
			a := []any{string(in.scope), w, w + "."}
			if in.keyed {
				cond = `scope = ? AND scope_key = ? AND slug >= ? AND slug < ?`
				a = []any{string(in.scope), in.key, w, w + "."}
			}
			parts = append(parts, `SELECT rid FROM memory_meta WHERE `+cond+` AND archived = 0`)
			args = append(args, a...)
		}
	}
	if len(parts) == 0 {
		return nil, nil
	}
	q := `SELECT rid, 1.0 FROM (` + strings.Join(parts, " UNION ") + `) ORDER BY rid DESC LIMIT ?`
	rows, err := s.db.QueryContext(ctx, q, append(args, limit)...)
	return collectRanked(rows, err, "slugs")
}
