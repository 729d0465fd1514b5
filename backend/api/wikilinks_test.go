package api

import (
	"strings"
	"testing"

	"engram/backend/memory"
)

// memory.read resolves [[links]] against the store: a slug or a title (any case) is the
// memory's id, a Chinese title too; any other name links to the entity; code stays literal.
func TestReadResolvesWikilinks(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	write := func(slug, title, body string) string {
		r, err := a.Memory.Write(WriteParams{Scope: memory.ScopeGlobal, Type: memory.TypeReference, Slug: slug, Title: title, Body: body})
		if err != nil {
			t.Fatal(err)
		}
		return r.ID
	}
	style := write("answer-style", "Answer Style", "Lead with code.")
	zh := write("hotpot", "川菜偏好", "不吃香菜。")
	from := write("links", "Links", "By slug [[answer-style]], by title [[answer style|the style]], 中文 [[川菜偏好]], entity [[Acme Cloud]], code `[[answer-style]]`.")
	r, err := a.Memory.Read(RefParams{ID: from})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`data-wikilink="answer-style" data-memory-id="` + style + `">Answer Style</a>`, // a slug reads as the title
		`data-wikilink="answer style" data-memory-id="` + style + `">the style</a>`,
		`data-wikilink="川菜偏好" data-memory-id="` + zh + `">川菜偏好</a>`,
		`data-wikilink="Acme Cloud" data-entity="Acme Cloud" data-entity-id="e`,
		`<code>[[answer-style]]</code>`,
	} {
		if !strings.Contains(r.HTML, want) {
			t.Errorf("html lacks %s\n%s", want, r.HTML)
		}
	}
}

// A [[Name]] that names no memory opens the entity of that name in the scope the link is
// written in. The link carried only the name, and the Graph view looked the name up across
// every scope: a project memory's [[Carol]] opened the global Carol, another entity with other
// relations. Each entity link now carries the id of its own scope's entity, which the graph
// answers to (a heading link too, and after the entity is merged into another by an alias).
func TestEntityLinksCarryTheirScopesEntity(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	wd := t.TempDir()
	write := func(p WriteParams) string {
		p.Type = memory.TypeReference
		if p.Scope == memory.ScopeProject {
			p.Type = memory.TypeProject
		}
		r, err := a.Memory.Write(p)
		if err != nil {
			t.Fatal(err)
		}
		return r.ID
	}
	write(WriteParams{Scope: memory.ScopeGlobal, Slug: "global-carol", Title: "Global Carol", Body: "- [[Carol]] lives_in [[Berlin]]"})
	proj := write(WriteParams{Scope: memory.ScopeProject, Workdir: wd, Slug: "proj-carol", Title: "Project Carol",
		Body: "Ask [[Carol#Role]] or [[Cara]].\n\n- [[Carol]] maintains [[Billing]]\n- [[Carol]] alias [[Cara]]"})
	r, err := a.Memory.Read(RefParams{ID: proj})
	if err != nil {
		t.Fatal(err)
	}
	want := func(p GraphNeighborsParams) string {
		sg, err := a.Graph.Neighbors(p)
		if err != nil || len(sg.Nodes) == 0 {
			t.Fatalf("neighbors %+v: %+v %v", p, sg, err)
		}
		return sg.Nodes[0].ID
	}
	projCarol := want(GraphNeighborsParams{GraphScope: GraphScope{Scope: memory.ScopeProject, Workdir: wd}, Entity: "Carol"})
	globalCarol := want(GraphNeighborsParams{GraphScope: GraphScope{Scope: memory.ScopeGlobal}, Entity: "Carol"})
	if projCarol == globalCarol {
		t.Fatal("the two Carols are one entity")
	}
	for _, target := range []string{"Carol", "Cara"} {
		at := strings.Index(r.HTML, `data-entity="`+target+`" data-entity-id="`)
		if at < 0 {
			t.Fatalf("no entity id on [[%s]]:\n%s", target, r.HTML)
		}
		id, _, _ := strings.Cut(r.HTML[at+len(`data-entity="`+target+`" data-entity-id="`):], `"`)
		// The id finds the project's Carol, as the Graph view asks for it (no scope named).
		if got := want(GraphNeighborsParams{Entity: id}); got != projCarol {
			t.Errorf("[[%s]] in a project memory opens %s, want the project's Carol %s (global %s)", target, got, projCarol, globalCarol)
		}
	}
}

// A [[link]] opens a memory of its own scope or a global one, never another project's: a
// global memory's [[deploy]] opened project B's "deploy" memory in the reader, while the graph
// read it as an entity (it reads links within their scope).
func TestLinksNeverOpenAnotherProjectsMemory(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	wdA, wdB := t.TempDir(), t.TempDir()
	write := func(p WriteParams) string {
		r, err := a.Memory.Write(p)
		if err != nil {
			t.Fatal(err)
		}
		return r.ID
	}
	write(WriteParams{Scope: memory.ScopeProject, Workdir: wdB, Type: memory.TypeProject, Slug: "deploy", Title: "Deploy", Body: "Project B deploys with Helm."})
	global := write(WriteParams{Scope: memory.ScopeGlobal, Type: memory.TypeReference, Slug: "habits", Title: "Habits", Body: "See [[deploy]] before a release."})
	inA := write(WriteParams{Scope: memory.ScopeProject, Workdir: wdA, Type: memory.TypeProject, Slug: "notes-a", Title: "Notes A", Body: "See [[deploy]] and [[habits]]."})
	for _, id := range []string{global, inA} {
		r, err := a.Memory.Read(RefParams{ID: id})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(r.HTML, `data-wikilink="deploy" data-memory-id=`) || !strings.Contains(r.HTML, `data-wikilink="deploy" data-entity="deploy"`) {
			t.Errorf("[[deploy]] in %s opens project B's memory:\n%s", id, r.HTML)
		}
	}
	// A project memory's link to a global memory still opens it.
	if r, _ := a.Memory.Read(RefParams{ID: inA}); !strings.Contains(r.HTML, `data-wikilink="habits" data-memory-id="`+global+`"`) {
		t.Errorf("[[habits]] in project A does not open the global memory:\n%s", r.HTML)
	}
}
