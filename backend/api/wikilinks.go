package api

import (
	"bytes"

	"github.com/yuin/goldmark/text"

	"engram/backend/graph"
	"engram/backend/memory"
	"engram/backend/wikilink"
)

// renderLinked renders a memory's body for the reader with its `[[links]]` resolved: a name
// that is the slug or title of a live memory links to that memory (the reader opens it), any
// other name links to the entity of that name (the graph view). A failed lookup renders every
// link as an entity link rather than failing the read.
func (a *API) renderLinked(m *memory.Memory) string {
	return a.renderLinkedFrom(m.Body, memory.LinkFrom{Scope: m.Scope, ScopeKey: m.ScopeKey()})
}

// renderLinkedFrom renders Markdown written in from's scope instance with its `[[links]]`
// resolved as renderLinked does: the reader renders a memory's body with it, the Journal a
// day and each of its entries, so a link reads the same wherever it is written.
func (a *API) renderLinkedFrom(body string, from memory.LinkFrom) string {
	src := []byte(body)
	doc := markdown.Parser().Parse(text.NewReader(src))
	if links := wikilink.Links(doc); len(links) > 0 {
		found, err := a.deps.Store.ResolveLinks(a.ctx, from, wikilink.Targets(links))
		if err == nil {
			for _, l := range links {
				l.MemoryID, l.Title = found[l.Target].ID, found[l.Target].Title
			}
		}
		// Any other name is the entity of that name in the scope instance the link is written
		// in (the graph never links across scopes): its id takes the Graph view there.
		for _, l := range links {
			if l.MemoryID == "" {
				l.EntityID = graph.EntityID(from.Scope, from.ScopeKey, EntityNameKey(l.Target))
			}
		}
	}
	var buf bytes.Buffer
	if err := markdown.Renderer().Render(&buf, src, doc); err != nil {
		return ""
	}
	return buf.String()
}
