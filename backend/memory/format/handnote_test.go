package format

import (
	"errors"
	"strings"
	"testing"
)

// A note written by hand with no header takes its opening "# heading" as its title, and the
// heading is not repeated in the body; a note without one keeps its whole text.
func TestHandNoteTitleFromHeading(t *testing.T) {
	for _, c := range []struct{ in, title, body string }{
		{"# My handmade note\n\nI prefer 中文 documentation.\n", "My handmade note", "I prefer 中文 documentation."},
		{"\n# 我的笔记 #\r\nbody\n", "我的笔记", "body"},
		{"## Not a title\n\ntext", "", "## Not a title\n\ntext"},
		{"plain text, # not a heading", "", "plain text, # not a heading"},
		{"# Only a heading\n", "", "# Only a heading"},
	} {
		h, body, err := ParseFileWithoutID([]byte(c.in))
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if h.Title != c.title || body != c.body {
			t.Errorf("%q: title %q body %q, want %q %q", c.in, h.Title, body, c.title, c.body)
		}
	}
}

// A header's YAML error names the file's line (the "---" above the header is line 1).
func TestBadYAMLNamesTheFilesLine(t *testing.T) {
	_, _, err := ParseFile([]byte("---\nid: 01J9Z3QX0000000000000000AA\ntitle: x\nslug: abc\ntype: user: bad\n---\nbody\n"))
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("err %v, want a ParseError", err)
	}
	if !strings.Contains(pe.Msg, "line 5") {
		t.Fatalf("message %q, want line 5 (the file's line of `type: user: bad`)", pe.Msg)
	}
}
