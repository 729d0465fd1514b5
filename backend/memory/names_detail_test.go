package memory

import "testing"

// A file in a type folder whose name is no slug is reported for its name, not as a file
// outside the layout, with its own catalog key.
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
		if d.key != c.key || (c.name != "" && d.args["Name"] != c.name) || d.text == "" {
			t.Errorf("%s: detail %q is %s %v, want %s %q", c.rel, d.text, d.key, d.args, c.key, c.name)
		}
	}
}
