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
		`data-wikilink="Acme Cloud" data-entity="Acme Cloud">Acme Cloud</a>`,
		`<code>[[answer-style]]</code>`,
	} {
		if !strings.Contains(r.HTML, want) {
			t.Errorf("html lacks %s\n%s", want, r.HTML)
		}
	}
}
