package extraction

import (
	"context"

	"engram/backend/memory"
	"engram/backend/recall"
)

// identitySlugs are the fixed slugs of facts a person has one of at a time (their name, role,
// work, status, where they live, where they are from), which the offline extractor writes
// under these slugs whatever the wording.
var identitySlugs = []string{"user-name", "user-role", "user-work", "user-status", "user-location", "user-hometown"}

// identityCandidates adds to a run's candidates the identity memories that exist (global, live)
// and that the caller may see, so a planner updates them instead of writing a second one.
//
// The trigger: "I live in Paris", later "Actually I moved to Berlin". The candidate search
// finds memories by the words of the turn, and "Berlin" does not find "Based in Paris", so
// the offline planner wrote user-location again, the store refused it (already_exists) and
// the old fact stayed: the newest statement must win. These few slugs are looked up by name
// (one indexed read each) whatever the turn says. Candidates already listed stay where they
// are; when the list is full, the last text-search ones make room (at most ContextCandidates).
//
// buildContext calls it right after the candidate search:
//
//	cands, err := s.candidates(ctx, vis, last.Content)
//	…
//	in.Candidates = s.identityCandidates(ctx, vis, cands)
func (s *Service) identityCandidates(ctx context.Context, vis recall.Visibility, cands []Candidate) []Candidate {
	have := map[string]bool{}
	for _, c := range cands {
		have[c.Scope+"\x00"+c.Slug] = true
	}
	var found []Candidate
	for _, slug := range identitySlugs {
		if have[string(memory.ScopeGlobal)+"\x00"+slug] {
			continue
		}
		// A failed read (absent, or the store erring) leaves the slug out: the planner then
		// writes, and the store's refusal shows in the run.
		m, err := s.o.Store.GetBySlug(ctx, memory.ScopeGlobal, "", "", slug)
		if err != nil || !vis.Allows(m) {
			continue
		}
		found = append(found, Candidate{Slug: m.Slug, Scope: string(m.Scope), Type: string(m.Type), Title: m.Title})
	}
	if len(found) == 0 {
		return cands
	}
	if room := ContextCandidates - len(found); len(cands) > room {
		cands = cands[:max(room, 0)]
	}
	return append(cands, found...)
}
