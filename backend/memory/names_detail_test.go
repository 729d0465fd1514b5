package memory

import (
	"testing"

	"engram/backend/memory/format"
)

// A file in a type folder whose name is no slug is reported for its name, not as a file
// outside the layout; the detail reads back as its own catalog key.
func TestLocationDetail(t *testing.T) {
	for _, c := range []struct{ rel, key, name string }{
		{"global/user/x.md", "detail.bad_slug", "x"},
		{"projects/0123456789abcdef/project/Bad_Name.md", "detail.bad_slug", "Bad_Name"},
		{".archive/2026/agents/claude/reference/a.md", "detail.bad_slug", "a"},
		{"global/notes/some-note.md", "detail.bad_type_folder", "notes"},
		{"README.md", "detail.not_location", ""},
		{"global/user/notes.txt", "detail.not_location", ""},
	} {
		d := locationDetail(c.rel)
		key, args := format.DetailKey(d)
		if key != c.key || (c.name != "" && args["Name"] != c.name) {
			t.Errorf("%s: detail %q reads as %s %v, want %s %q", c.rel, d, key, args, c.key, c.name)
		}
	}
}
