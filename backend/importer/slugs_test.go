package importer

import (
	"strings"
	"testing"

	"engram/backend/memory/format"
)

// Two different notes sharing a long Chinese slug (an Obsidian permalink) get a hash suffix;
// the slug was cut at byte 54, inside a character, and the note was refused as no slug.
func TestUniqueSlugsCutAtACharacter(t *testing.T) {
	slug := "a" + strings.Repeat("长", 21) // 64 bytes: byte 54 is inside a character
	recs := []Sourced{
		{Record: format.Record{Scope: format.ScopeGlobal, Slug: slug, Title: "a", Body: "one"}},
		{Record: format.Record{Scope: format.ScopeGlobal, Slug: slug, Title: "a", Body: "two"}},
	}
	uniqueSlugs(recs)
	if got := recs[1].Record.Slug; got == slug || !format.ValidSlug(got) {
		t.Fatalf("second slug %q (valid %v)", got, format.ValidSlug(got))
	}
}
