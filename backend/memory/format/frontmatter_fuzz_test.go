package format

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// FuzzFile: the frontmatter parser the store reads every memory file with (memory.Parse is a
// thin wrapper) never panics on any bytes; whatever it refuses is a *ParseError; whatever it
// accepts renders and re-parses to a fixed point. Its dependencies are light (no SQLite), so
// `make fuzz-ci` builds it in seconds; memory's FuzzParse adds the store's normalisation.
func FuzzFile(f *testing.F) {
	seed, err := RenderFile(Header{ID: "01HXAMPLE0000000000000000A", Slug: "green-tea", Title: "Likes green tea", Scope: ScopeGlobal,
		Type: TypeUser, Confidence: ConfidenceHigh, Reviewed: true, SourceQuote: "I drink green tea every day", Aliases: []string{"tea"},
		Tags: []string{"drink", "绿茶"}, Source: &Source{Kind: "extractor", Session: "s1", Turn: 3},
		Created: time.Date(2024, 5, 14, 10, 30, 0, 0, time.UTC), Updated: time.Date(2024, 5, 15, 8, 0, 0, 0, time.UTC)},
		"我喜欢喝绿茶\n\n- likes [[Green Tea]]")
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{
		string(seed), "", "no frontmatter at all", "---\n---\n", "---\nid: x\n---", "---\nid: x\n---\nbody\n---\nmore\n",
		"---\r\nid: x\r\ntitle: crlf\r\n---\r\nbody\r\n", "\ufeff---\nid: bom\n---\nbody", "---\nid: [unclosed\n---\n",
		"---\nid: x\nconfidence: certain\n---\n", "---\nid: x\ncreated: 2024-01-01\nupdated: not a date\n---\n",
		"---\nid: x\ntags: {a: b}\n---\n", "---\nid: x\n---\n\xff\xfe", "---\nid: &a x\ntitle: *a\n---\n",
		"---\nid: x\nsource: {kind: user, turn: 99999999999999999999}\n---\n", "---\nid: x\ntitle: |\n  two\n  ---\n  lines\n---\nbody",
		"---\nid: x\ntitle: \"\\u2028\"\n---\n", "---\nid: x\naliases: [a, [b]]\n---\n",
	} {
		f.Add([]byte(s))
	}
	// Headers on their own, for the fast reader (readHeaderFast) to take.
	f.Add([]byte("id: 01HX\nslug: green-tea\ntitle: Likes green tea\nreviewed: true\ntags:\n  - drink\n  - 绿茶\nsource:\n  kind: extractor\n  turn: 3\ncreated: 2024-05-14T10:30:00Z"))
	f.Add([]byte("id: x\ntitle: null\nsource:\n  turn: 010"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// Whatever the fast header reader takes, yaml.v3 reads the same.
		var fast Header
		if readHeaderFast(data, &fast) {
			var slow Header
			if err := yaml.Unmarshal(data, &slow); err != nil || !reflect.DeepEqual(fast, slow) {
				t.Fatalf("the fast reader and yaml.v3 disagree on %q (%v):\nfast %+v\nyaml %+v", data, err, fast, slow)
			}
		}
		h, body, err := ParseFile(data)
		if err != nil {
			if _, ok := err.(*ParseError); !ok {
				t.Fatalf("an error that is not a *ParseError: %T %v", err, err)
			}
			return
		}
		if h.ID == "" || !h.Confidence.Valid() {
			t.Fatalf("accepted a header without id or with confidence %q", h.Confidence)
		}
		out, err := RenderFile(h, body)
		if err != nil {
			t.Fatalf("RenderFile of a parsed file: %v", err)
		}
		h2, body2, err := ParseFile(out)
		if err != nil {
			t.Fatalf("re-parse of a rendered file: %v\n%q", err, out)
		}
		if h2.ID != h.ID || h2.Title != h.Title || h2.SourceQuote != h.SourceQuote || !sameList(h2.Tags, h.Tags) ||
			body2 != strings.Trim(strings.TrimRight(body, "\n"), "\n") {
			t.Fatalf("render changed the file:\n%+v %q\n%+v %q", h, body, h2, body2)
		}
		out2, err := RenderFile(h2, body2)
		if err != nil {
			t.Fatal(err)
		}
		h3, body3, err := ParseFile(out2)
		if err != nil || !reflect.DeepEqual(h2, h3) || body2 != body3 {
			t.Fatalf("Render→Parse is not a fixed point (%v):\n%+v\n%+v", err, h2, h3)
		}
	})
}

// sameList: an empty list reads back as none (`tags: [-]` renders without the field).
func sameList(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || reflect.DeepEqual(a, b))
}
