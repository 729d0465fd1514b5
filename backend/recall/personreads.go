package recall

import (
	"slices"
	"sync"

	"engram/backend/memory"
)

// personRead is what the facet rules found in one version of a user memory: its text as
// aboutThePerson gives it, the facets its title labels, and, for each facet it has been read
// for (checked), whether it states it. A memory is read only for the facets asked so far: a
// short process asks one question, and reading every facet would cost it the rest.
type personRead struct {
	version string
	hay     string
	// whole is the whole text: a note about the family is about others, which aboutThePerson
	// leaves out of hay. It is folded (foldDialect) only for a family question (textFor).
	whole           string
	titled          []Facet
	checked, states uint32 // a bit per facet (facetBit)
}

// facetBit is f's bit in personRead's sets.
func facetBit(f Facet) uint32 {
	for i, g := range allFacets {
		if g == f {
			return 1 << i
		}
	}
	return 0
}

// allFacets are the facets a memory can be read for.
var allFacets = []Facet{FacetName, FacetHome, FacetOrigin, FacetWork, FacetAge, FacetPreference, FacetRoutine, FacetFamily, FacetHealth,
	FacetEducation, FacetTools, FacetFear, FacetGoal, FacetContact, FacetManner, FacetMoney, FacetWeek, FacetLanguage, FacetTimezone, FacetCommute}

// newPersonRead reads a memory's text about the person, for no facet yet.
func newPersonRead(m *memory.Memory) personRead {
	return personRead{version: m.Version, hay: aboutThePerson(m), whole: m.Title + "\n" + m.Body,
		titled: titleFacets(m.Title)}
}

// check reads the memory for the asked facets it was not read for; it reports whether it read
// any.
func (r *personRead) check(asked []Facet) bool {
	changed := false
	for _, f := range asked {
		bit := facetBit(f)
		if bit == 0 || r.checked&bit != 0 {
			continue
		}
		r.checked |= bit
		changed = true
		if slices.Contains(r.titled, f) || statesFacet(f, r.textFor(f)) {
			r.states |= bit
		}
	}
	return changed
}

// answers reports whether the memory states one of the facets asked (each checked), and
// which kinds: a fact of the person (name, home, origin, work, age, routine, family, health)
// or a preference. A fact counts only when it names the part of its facet the question asked,
// if the question named one (subAsk: the dog, the blood type).
func (r personRead) answers(asked []Facet, parts subAsk) (fact, pref bool) {
	for _, f := range asked {
		if r.states&facetBit(f) != 0 {
			if !parts.answers(f, r.textFor(f)) {
				continue
			}
			fact = fact || f != FacetPreference
			pref = pref || f == FacetPreference
		}
	}
	return fact, pref
}

// maxPersonReads bounds the cache; past it the cache starts again. Twice what one question
// reads (maxFacetScan): a reading keeps the memory's text twice (what it says of the person,
// and the whole, folded), each up to MaxBodyBytes, so the bound is what keeps a long-running
// app's memory in check (~2 MB for 3,000 typical notes, 48 MB at worst).
const maxPersonReads = 2 * maxFacetScan

// personReads keeps each user memory's reading by id and content version. A facet question
// reads every visible user memory (up to maxFacetScan) through some forty sentence and facet
// patterns — hundreds of milliseconds at 1,500 memories — and the next question reads the
// same ones: the version (the file's content hash) says when a reading is stale.
type personReads struct {
	mu sync.Mutex
	m  map[string]personRead
	// made counts the memories this process read; fresh, those since the last save
	// (personreads_file.go).
	made, fresh int

	// The file the readings' bits are kept in (keepOnDisk), the build key that names them,
	// and whether this process may write it. Nil build: kept in memory only.
	path     string
	save     bool
	build    func() uint64
	key      uint64
	loadOnce sync.Once
}

func newPersonReads() *personReads { return &personReads{m: map[string]personRead{}} }

// lookup returns the kept reading of version of the memory id, read for the asked facets,
// if one is kept.
func (c *personReads) lookup(id, version string, asked []Facet) (personRead, bool) {
	if c == nil || version == "" {
		return personRead{}, false
	}
	c.loaded()
	c.mu.Lock()
	r, ok := c.m[id]
	c.mu.Unlock()
	if !ok || r.version != version {
		return personRead{}, false
	}
	if r.bitsOnly() {
		// Kept from the file, without text: it answers only when it was read for every facet
		// asked and states none of them (then there is nothing to check in its text).
		need := facetBits(asked)
		if r.checked&need != need || r.states&need != 0 {
			return personRead{}, false
		}
		return r, true
	}
	if r.check(asked) {
		c.mu.Lock()
		if cur, ok := c.m[id]; ok && cur.version == version {
			cur.checked |= r.checked
			cur.states = cur.states&^r.checked | r.states
			c.m[id] = cur
		}
		c.mu.Unlock()
	}
	return r, true
}

// read returns m's reading for the asked facets, from the cache when its version is kept.
func (c *personReads) read(m *memory.Memory, asked []Facet) personRead {
	if r, ok := c.lookup(m.ID, m.Version, asked); ok {
		return r
	}
	r := newPersonRead(m)
	r.check(asked)
	if c == nil || m.Version == "" {
		return r
	}
	c.mu.Lock()
	if len(c.m) >= maxPersonReads {
		clear(c.m)
	}
	if old, ok := c.m[m.ID]; ok && old.version == r.version && old.bitsOnly() {
		// What the file said of the facets not asked now still holds for this version.
		r.states |= old.states &^ r.checked
		r.checked |= old.checked
	}
	c.m[m.ID] = r
	c.made++
	c.fresh++
	c.mu.Unlock()
	return r
}

// bitsOnly reports a reading kept from the file: its facet bits without its text (a reading
// made here always has its whole text, the title and body joined by a line break).
func (r personRead) bitsOnly() bool { return r.whole == "" }

// facetBits is the set of the facets' bits.
func facetBits(fs []Facet) uint32 {
	var bits uint32
	for _, f := range fs {
		bits |= facetBit(f)
	}
	return bits
}

// textFor is the text a facet is read in: the whole note for the family (about others by
// nature), what it says of the person for every other facet.
func (r personRead) textFor(f Facet) string {
	switch f {
	case FacetFamily:
		return foldDialect(r.whole)
	case FacetManner, FacetContact:
		// How to talk to the person is often written about them ("他看不懂"), and contacts
		// are other people ("Mum: +44 7700 900123").
		return r.whole
	}
	return r.hay
}
