package memory

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/oklog/ulid/v2"
)

// graphFacts renders the stored graph as sorted lines ("entity scope/key name", "rel a -type-> b
// by slug", "mention name by slug") so a test compares it with what it expects in one look.
func (e *env) graphFacts() []string {
	e.t.Helper()
	d, err := e.s.GraphData(e.ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	// An entity shows as its most common spelling (ties: the smallest), as the graph reads it.
	counts := map[int64]map[string]int{}
	for _, m := range d.Mentions {
		if counts[m.Entity] == nil {
			counts[m.Entity] = map[string]int{}
		}
		counts[m.Entity][m.Spelling]++
	}
	names := map[int64]string{}
	for id, c := range counts {
		best := ""
		for sp, n := range c {
			if best == "" || n > c[best] || (n == c[best] && sp < best) {
				best = sp
			}
		}
		names[id] = best
	}
	slugs := map[int64]string{}
	for _, m := range d.Memories {
		slugs[m.RID] = m.Slug
	}
	var out []string
	for _, en := range d.Entities {
		out = append(out, "entity "+string(en.Scope)+"/"+en.ScopeKey+" "+names[en.ID])
	}
	for _, m := range d.Mentions {
		k := ""
		if m.Kind != "" {
			k = " (" + m.Kind + ")"
		}
		out = append(out, "mention "+names[m.Entity]+k+" by "+slugs[m.MemoryRID])
	}
	for _, r := range d.Relations {
		out = append(out, "rel "+names[r.Src]+" -"+r.Type+"-> "+names[r.Dst]+" by "+slugs[r.MemoryRID])
	}
	sort.Strings(out)
	return out
}

func (e *env) wantGraph(want ...string) {
	e.t.Helper()
	sort.Strings(want)
	got := e.graphFacts()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		e.t.Fatalf("graph:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func TestGraphFollowsWritesEditsDeletesAndRestores(t *testing.T) {
	e := newEnv(t)
	r := e.ok(wr("job", "Job", "I work at Acme.\n\n- works_at [[Acme]]\n- knows [[Bob|Bobby]]\n\n```\n[[NotAnEntity]]\n```"))
	e.wantGraph(
		"entity global/ User", "entity global/ Acme", "entity global/ Bob",
		"mention User (person) by job", "mention Acme (organization) by job", "mention Bob (person) by job",
		"rel User -works_at-> Acme by job", "rel User -knows-> Bob by job")
	gen1, _ := e.s.GraphGen(e.ctx)

	// A second memory about Acme shares the entity (case and width folded).
	e.ok(wr("acme-note", "Acme note", "[[ＡＣＭＥ]] moved to [[Berlin]]"))
	e.wantGraph(
		"entity global/ User", "entity global/ Acme", "entity global/ Bob", "entity global/ Berlin",
		"mention User (person) by job", "mention Acme (organization) by job", "mention Bob (person) by job",
		"mention Acme by acme-note", "mention Berlin by acme-note",
		"rel User -works_at-> Acme by job", "rel User -knows-> Bob by job")
	if gen2, _ := e.s.GraphGen(e.ctx); gen2 <= gen1 {
		t.Fatalf("graph generation did not move: %d then %d", gen1, gen2)
	}

	// A hand edit (the frontmatter subject, a Chinese relation) is reconciled into the graph.
	path := filepath.Join(e.s.Root(), filepath.FromSlash(r.Path))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), "type: user\n", "type: user\nsubject: 张三\n", 1)
	edited = edited[:strings.Index(edited, "I work at")] + "- 就职于 [[字节跳动]]\n"
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if rep := e.reconcile(); rep.Updated != 1 {
		t.Fatalf("reconcile: %+v", rep)
	}
	if got := e.get(r.ID); got.Subject != "张三" {
		t.Fatalf("subject not indexed: %q", got.Subject)
	}
	e.wantGraph(
		"entity global/ ＡＣＭＥ", "entity global/ Berlin", "entity global/ 张三", "entity global/ 字节跳动",
		"mention ＡＣＭＥ by acme-note", "mention Berlin by acme-note",
		"mention 张三 (person) by job", "mention 字节跳动 (organization) by job",
		"rel 张三 -就职于-> 字节跳动 by job")

	// Delete takes its entities with it; restore brings them back.
	e.ok(Item{Op: OpDelete, ID: r.ID})
	e.wantGraph("entity global/ ＡＣＭＥ", "entity global/ Berlin", "mention ＡＣＭＥ by acme-note", "mention Berlin by acme-note")
	e.ok(Item{Op: OpRestore, ID: r.ID})
	after := []string{
		"entity global/ ＡＣＭＥ", "entity global/ Berlin", "entity global/ 张三", "entity global/ 字节跳动",
		"mention ＡＣＭＥ by acme-note", "mention Berlin by acme-note",
		"mention 张三 (person) by job", "mention 字节跳动 (organization) by job",
		"rel 张三 -就职于-> 字节跳动 by job"}
	e.wantGraph(after...)

	// Archive hides what a memory states; a reindex rebuilds the same graph from the files.
	e.ok(Item{Op: OpArchive, ID: r.ID})
	e.wantGraph("entity global/ ＡＣＭＥ", "entity global/ Berlin", "mention ＡＣＭＥ by acme-note", "mention Berlin by acme-note")
	e.ok(Item{Op: OpRestore, ID: r.ID})
	e.wantGraph(after...)
	if _, err := e.s.Reindex(e.ctx); err != nil {
		t.Fatal(err)
	}
	e.wantGraph(after...)

	// A file removed by hand is removed from the graph on reconcile.
	if err := os.Remove(filepath.Join(e.s.Root(), filepath.FromSlash(e.get(r.ID).Path))); err != nil {
		t.Fatal(err)
	}
	e.reconcile()
	e.wantGraph("entity global/ ＡＣＭＥ", "entity global/ Berlin", "mention ＡＣＭＥ by acme-note", "mention Berlin by acme-note")
}

func TestGraphEntitiesNeverSpanScopes(t *testing.T) {
	e := newEnv(t)
	wd := t.TempDir()
	e.ok(wr("ggg", "G", "[[Alice]]"))
	e.ok(Item{Op: OpWrite, Scope: ScopeProject, Workdir: wd, Type: TypeProject, Slug: "ppp", Title: sp("P"),
		Body: sp("- uses [[Alice]]"), Confidence: ConfidenceLow})
	e.ok(Item{Op: OpWrite, Scope: ScopeAgent, Agent: "codex", Type: TypeReference, Slug: "aaa", Title: sp("A"),
		Body: sp("[[alice]]"), Confidence: ConfidenceLow})
	key := ProjectKey(mustCanon(t, wd))
	base := filepath.Base(mustCanon(t, wd))
	e.wantGraph("entity global/ Alice", "entity project/"+key+" Alice", "entity project/"+key+" "+base,
		"entity agent/codex alice",
		"mention Alice by ggg", "mention Alice (tool) by ppp", "mention "+base+" (project) by ppp", "mention alice by aaa",
		"rel "+base+" -uses-> Alice by ppp")
}

func TestGraphLinksToMemoriesBySlugAndTitle(t *testing.T) {
	e := newEnv(t)
	e.ok(wr("deploy-notes", "Deploy notes", "how we ship"))
	e.ok(wr("other", "Other", "see [[deploy-notes]] and [[Deploy Notes]]"))
	id := ulid.Make().String()
	e.put("global/reference/hand.md", handFile(id, "Hand", "links [[Other]]"))
	e.reconcile()
	d, err := e.s.GraphData(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	slugOf := map[int64]string{}
	for _, m := range d.Memories {
		slugOf[m.RID] = m.Slug
	}
	nameOf := map[int64]string{}
	for _, en := range d.Entities {
		nameOf[en.ID] = en.Name
	}
	var links []string
	for _, l := range d.Links {
		links = append(links, nameOf[l.Entity]+" -> "+slugOf[l.MemoryRID])
	}
	sort.Strings(links)
	if strings.Join(links, ",") != "Other -> other,deploy-notes -> deploy-notes" {
		t.Fatalf("links = %q", links)
	}
}

// A memory naming more entities and relations than one graph statement writes (graphChunk)
// records every one of them, across the chunk boundaries, and a second memory reusing some of
// the names shares their entities.
func TestGraphRowsAcrossChunks(t *testing.T) {
	e := newEnv(t)
	n := 2*graphChunk + 17
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "- [[Node %d]] knows [[Node %d]]\n", i, i+1)
	}
	e.ok(wr("chain", "Chain", b.String()))
	e.ok(wr("again", "Again", "[[node 0]] and [[NODE 150]] and [[Fresh]]"))
	d, err := e.s.GraphData(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Entities) != n+2 || len(d.Relations) != n || len(d.Mentions) != n+1+3 {
		t.Fatalf("%d entities (want %d), %d relations (want %d), %d mentions (want %d)",
			len(d.Entities), n+2, len(d.Relations), n, len(d.Mentions), n+4)
	}
	ids := map[int64]bool{}
	for _, en := range d.Entities {
		ids[en.ID] = true
	}
	for _, r := range d.Relations {
		if !ids[r.Src] || !ids[r.Dst] || r.Src == r.Dst {
			t.Fatalf("relation %+v joins unknown entities", r)
		}
	}
}
