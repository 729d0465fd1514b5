package recall

import (
	"context"

	"engram/backend/memory"
	"engram/backend/text"
	"engram/backend/text/wikilink"
)

// Bounds of the names a query is read for: entity names of up to four words, CJK names of
// two to eight characters taken from runs of at most 32.
const (
	hopMaxWords  = 4
	hopMinCJK    = 2
	hopMaxCJK    = 8
	hopCJKWindow = 32
)

// graphPath finds the memories one hop away from the entities the query names (issue 13,
// item 5): the word paths only see the memories that share the query's words, so a relation
// written as `- member_of [[Team X]]` leads from "Alice" to what is said about Team X.
func (s *Service) graphPath(ctx context.Context, q string, f memory.Filter, w memory.TimeWindow) ([]memory.RankedRID, error) {
	if s.t.WGraph <= 0 {
		return nil, nil
	}
	return s.store.GraphHops(ctx, queryNames(q), f, w, s.t.Depth)
}

// queryNames lists the normalised names (wikilink.Norm, the key entities are stored under)
// that a query could be naming: every run of one to four words, and every two-to-eight
// character stretch of its CJK text. A lone stop word or a single letter names nothing.
func queryNames(q string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(name string) {
		k := wikilink.Norm(name)
		if text.RuneLen(k) < 2 || seen[k] || len(out) >= memory.MaxHopNames {
			return
		}
		seen[k] = true
		out = append(out, k)
	}
	toks := text.Split(q)
	for i := range toks {
		if toks[i].CJK {
			rs := []rune(toks[i].Text)
			if len(rs) > hopCJKWindow {
				rs = rs[:hopCJKWindow]
			}
			for a := 0; a < len(rs); a++ {
				for b := a + hopMinCJK; b <= len(rs) && b-a <= hopMaxCJK; b++ {
					add(string(rs[a:b]))
				}
			}
			continue
		}
		name := ""
		for j := i; j < len(toks) && j < i+hopMaxWords && !toks[j].CJK; j++ {
			name += " " + toks[j].Text
			if j == i && text.IsStop(toks[j].Text) {
				break
			}
			add(name)
		}
	}
	return out
}
