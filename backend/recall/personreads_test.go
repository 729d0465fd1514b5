package recall

import (
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"engram/backend/memory"
	"engram/backend/text"
)

// TestGuardedPatternsAgree runs the facet, subject and sentence patterns both through their
// literal guards (text.Regexp) and whole (the compiled regexp) over every memory and
// question of the identity regression set: the guards may only skip texts that cannot match.
func TestGuardedPatternsAgree(t *testing.T) {
	var texts []string
	for _, set := range loadIdentitySets(t, "testdata/identity.json") {
		for _, m := range set.Memories {
			texts = append(texts, m.Title, m.Body)
			texts = append(texts, reSentence.FindAllString(m.Body, -1)...)
		}
		for _, q := range set.Questions {
			texts = append(texts, q.Q)
		}
	}
	patterns := []*text.Regexp{reOthersStart, reWithThePerson, reVerb, reAlsoThePerson, reLaterSelf, reSelfSubject, reUserSubject,
		reAvoidQuestion, reAllergyWords, reEatWords, reDrinkWords, reLikes}
	for _, r := range facetRules {
		for _, re := range []*text.Regexp{r.question, r.answer} {
			if re != nil { // a rule may add only question forms, or only answers
				patterns = append(patterns, re)
			}
		}
	}
	// Under the race detector one text in 4×raceSample is checked (at one in raceSample, 14 s of
	// recall's race run for what is no concurrency); `make test` checks all in a build without
	// it (build/scripts/test.sh, "identity regression").
	sample := 1
	if raceBuild {
		sample = 4 * raceSample
	}
	checked := 0
	for _, p := range patterns {
		whole := p.Compiled()
		for i, s := range texts {
			if i%sample != 0 {
				continue
			}
			if got, want := p.MatchString(s), whole.MatchString(s); got != want {
				t.Fatalf("%.80q on %q: guarded %v, whole %v", p.String(), s, got, want)
			}
			checked++
		}
	}
	if checked < 10000/sample {
		t.Fatalf("only %d checks: the regression set did not load", checked)
	}
}

// TestPersonReadsFollowVersions checks that a kept reading is used only for the version it
// was made from (an edited memory is read again), and that a memory is read for the facets
// asked, more of them when a later question asks for more.
func TestPersonReadsFollowVersions(t *testing.T) {
	c := newPersonReads()
	home, work := []Facet{FacetHome}, []Facet{FacetWork}
	m := &memory.Memory{ID: "a", Version: "v1", Type: memory.TypeUser, Title: "Notes", Body: "I live in Porto. I work as a nurse."}
	if fact, _ := c.read(m, home).answers(home, nil); !fact {
		t.Fatal("v1 should answer home")
	}
	r, ok := c.lookup("a", "v1", nil)
	if !ok || r.checked != facetBit(FacetHome) {
		t.Fatalf("v1 kept %v, read for %b: want read for home only", ok, r.checked)
	}
	// A later question about work reads the kept text for work, and keeps that too.
	if r, ok := c.lookup("a", "v1", work); !ok {
		t.Fatal("v1 not kept")
	} else if fact, _ := r.answers(work, nil); !fact {
		t.Fatal("v1 should answer work")
	}
	if r, _ := c.lookup("a", "v1", nil); r.checked != facetBit(FacetHome)|facetBit(FacetWork) || r.states != r.checked {
		t.Fatalf("after the work question: read for %b, states %b", r.checked, r.states)
	}
	if _, ok := c.lookup("a", "v2", home); ok {
		t.Fatal("v2 reported kept before it was read")
	}
	m2 := &memory.Memory{ID: "a", Version: "v2", Type: memory.TypeUser, Title: "Work", Body: "Two cats, both grey."}
	if fact, _ := c.read(m2, home).answers(home, nil); fact {
		t.Fatal("v2 answered home from v1's reading")
	}
	// A memory without a version (not from the index) is never kept.
	c.read(&memory.Memory{ID: "b", Type: memory.TypeUser, Body: "I live in Oslo."}, home)
	if _, ok := c.lookup("b", "", home); ok {
		t.Fatal("an unversioned reading was kept")
	}
}

// TestFacetPathRereadsEdits asks an identity question, edits the memory that answered it so
// that it no longer does, and asks again: the cached reading must not outlive the edit.
func TestFacetPathRereadsEdits(t *testing.T) {
	e := newEnv(t)
	e.write(mem{slug: "home", title: "Where I am", body: "I live in Porto with two cats."},
		mem{slug: "spec", typ: memory.TypeReference, title: "OpenAPI spec", body: "The OpenAPI spec lives in api/openapi.yaml."})
	if got := slugs(e.search("where do I live")); len(got) == 0 || got[0] != "home" {
		t.Fatalf("before the edit: %v, want home first", got)
	}
	e.clock.Advance(time.Minute)
	body := "Two cats, both grey."
	res0, err := e.store.ApplyBatch(e.ctx, memory.Batch{Actor: memory.ActorImport, Items: []memory.Item{
		{Op: memory.OpUpdate, Scope: memory.ScopeGlobal, Slug: "home", Body: &body, Mode: "replace"}}})
	if err != nil || res0.Failed > 0 {
		t.Fatalf("update: %v %+v", err, res0.Results)
	}
	res := e.search("where do I live")
	for _, h := range res.Hits {
		if h.Memory.Slug == "home" && h.Memory.Body != "Two cats, both grey." {
			t.Fatalf("the hit carries the old body %q", h.Memory.Body)
		}
	}
	a := Analyze("where do I live", t0, time.UTC)
	hits, err := e.svc.facetPath(e.ctx, a, memory.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 0 {
		t.Fatalf("the edited memory still answers the home facet: %v", hits)
	}
}

// TestPersonReadsKeptOnDisk asks an identity question in one service and again in a new one
// on the same store (a new process): the second reads again only the memories that state the
// facet, and what was written since, and ranks as the first did. A file of another build, or
// a damaged one, is not used.
func TestPersonReadsKeptOnDisk(t *testing.T) {
	e := newEnv(t)
	var ms []mem
	for i := range 40 {
		ms = append(ms, mem{slug: fmt.Sprintf("note-%02d", i), title: fmt.Sprintf("Note %d", i),
			body: fmt.Sprintf("Keeps the review checklist number %d close at hand.", i)})
	}
	ms = append(ms, mem{slug: "home", title: "Where I am", body: "I live in Porto with two cats."})
	e.write(ms...)
	first := slugs(e.search("where do I live"))
	if len(first) == 0 || first[0] != "home" {
		t.Fatalf("first service: %v, want home first", first)
	}
	path := e.store.CachePath(readsCacheKind)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("no reads file after reading %d memories: %v", len(ms), err)
	}
	// freshAfter asks in a new service and returns what it read afresh, and its ranking.
	freshAfter := func(build func() uint64) (int, []string) {
		t.Helper()
		svc := New(e.store, Options{Logger: quiet})
		if build != nil {
			svc.reads.build = build
		}
		res, err := svc.Search(e.ctx, SearchParams{Query: "where do I live"})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range res.Hits {
			got = append(got, h.Memory.Slug)
		}
		svc.reads.mu.Lock()
		defer svc.reads.mu.Unlock()
		return svc.reads.made, got
	}
	if n, got := freshAfter(nil); n != 1 || !slices.Equal(got, first) {
		t.Fatalf("new service read %d afresh (want 1: the one stating home), ranked %v (want %v)", n, got, first)
	}
	// A memory edited since has another version: it is read again, and now answers.
	e.clock.Advance(time.Minute)
	body := "I moved; I live in Oslo now."
	if res, err := e.store.ApplyBatch(e.ctx, memory.Batch{Actor: memory.ActorImport, Items: []memory.Item{
		{Op: memory.OpUpdate, Scope: memory.ScopeGlobal, Slug: "note-07", Body: &body, Mode: "replace"}}}); err != nil || res.Failed > 0 {
		t.Fatalf("update: %v %+v", err, res.Results)
	}
	if n, got := freshAfter(nil); n != 2 || !slices.Contains(got[:min(2, len(got))], "note-07") {
		t.Fatalf("after an edit: read %d afresh (want 2), ranked %v (want note-07 among the first two)", n, got)
	}
	// Another build's rules may read otherwise: its file is not used.
	if n, _ := freshAfter(func() uint64 { return 12345 }); n != len(ms) {
		t.Fatalf("another build read %d afresh, want all %d", n, len(ms))
	}
	// That build wrote its own file; this build starts empty once, and a damaged file is
	// not used either.
	if n, _ := freshAfter(nil); n != len(ms) {
		t.Fatalf("after another build's save: read %d afresh, want all %d", n, len(ms))
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-3] ^= 0x40
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if n, got := freshAfter(nil); n != len(ms) || len(got) == 0 {
		t.Fatalf("damaged file: read %d afresh (want all %d), ranked %v", n, len(ms), got)
	}
}
