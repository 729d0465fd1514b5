package recall

import (
	"slices"
	"sync"

	"engram/backend/memory"
)

// personRead is what the facet rules found in one version of a user memory: its text as
// aboutThePerson gives it and the facets it states.
type personRead struct {
	version string
	hay     string
	facets  []Facet
}

// answers reports whether the memory states one of the facets asked, and which kinds: a fact
// of the person (name, home, origin, work, age) or a preference.
func (r personRead) answers(asked []Facet) (fact, pref bool) {
	for _, f := range r.facets {
		if slices.Contains(asked, f) {
			fact = fact || f != FacetPreference
			pref = pref || f == FacetPreference
		}
	}
	return fact, pref
}

// allFacets are the facets a memory is read for, in facetRules' order.
var allFacets = []Facet{FacetName, FacetHome, FacetOrigin, FacetWork, FacetAge, FacetPreference}

// readPerson reads a user memory for every facet at once.
func readPerson(m *memory.Memory) personRead {
	r := personRead{version: m.Version, hay: aboutThePerson(m)}
	titled := titleFacets(m.Title)
	for _, f := range allFacets {
		if slices.Contains(titled, f) {
			r.facets = append(r.facets, f)
			continue
		}
		if fact, pref := facetAnswerText([]Facet{f}, r.hay); fact || pref {
			r.facets = append(r.facets, f)
		}
	}
	return r
}

// maxPersonReads bounds the cache; past it the cache starts again (a store rarely holds
// more user memories than a facet question reads, see maxFacetScan).
const maxPersonReads = 16384

// personReads keeps each user memory's reading by id and content version. A facet question
// reads every visible user memory (up to maxFacetScan) through some forty sentence and facet
// patterns — hundreds of milliseconds at 1,500 memories — and the next question reads the
// same ones: the version (the file's content hash) says when a reading is stale.
type personReads struct {
	mu sync.Mutex
	m  map[string]personRead
}

func newPersonReads() *personReads { return &personReads{m: map[string]personRead{}} }

// cached returns the reading of version of the memory id, if it is kept.
func (c *personReads) cached(id, version string) (personRead, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.m[id]
	return r, ok && version != "" && r.version == version
}

// fresh reports whether the reading of version of the memory id is kept.
func (c *personReads) fresh(id, version string) bool {
	_, ok := c.cached(id, version)
	return ok
}

// read returns m's reading, from the cache when its version is unchanged.
func (c *personReads) read(m *memory.Memory) personRead {
	if c == nil || m.Version == "" {
		return readPerson(m)
	}
	c.mu.Lock()
	r, ok := c.m[m.ID]
	c.mu.Unlock()
	if ok && r.version == m.Version {
		return r
	}
	r = readPerson(m)
	c.mu.Lock()
	if len(c.m) >= maxPersonReads {
		clear(c.m)
	}
	c.m[m.ID] = r
	c.mu.Unlock()
	return r
}
