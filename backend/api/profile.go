package api

import (
	"engram/backend/extraction"
	"engram/backend/memory"
)

// ProfileService shows the person's structured profile (Settings → nothing to set: it is
// derived from the memories, and edited by editing them).
type ProfileService struct{ a *API }

// profileSources bounds the memories a profile is derived from (the newest first).
const profileSources = 2000

// Get derives the profile from the global user and experience memories.
func (s *ProfileService) Get(_ Empty) (extraction.Profile, error) {
	if err := s.a.Wait(); err != nil {
		return extraction.Profile{}, err
	}
	var all []*memory.Memory
	for _, t := range []memory.Type{memory.TypeUser, memory.TypeExperience} {
		items, _, err := s.a.deps.Store.List(s.a.ctx, memory.Filter{Scope: memory.ScopeGlobal, Type: t, Limit: profileSources})
		if err != nil {
			return extraction.Profile{}, s.a.fail(err)
		}
		all = append(all, items...)
	}
	return extraction.DeriveProfile(all, s.a.deps.Store.Now()), nil
}
