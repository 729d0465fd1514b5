package memory

import "testing"

// Text holding a control character — an escape code a terminal would act on when the memory
// is printed — is refused in every field, whoever writes it, and a hand-placed file holding
// one is reported and left as it is. Tabs and line breaks are text.
func TestControlCharactersRefused(t *testing.T) {
	e := newEnv(t)
	for _, tc := range []struct {
		name  string
		it    Item
		field string
	}{
		{"escape in the title", wr("esc-title", "evil\x1b[31mred", "body"), "title"},
		{"OSC in the body", wr("osc-body", "OSC", "set title \x1b]0;pwned\x07 done"), "body"},
		{"bell in an alias", func() Item { it := wr("bell-alias", "Bell", "b"); it.Aliases = []string{"ding\a"}; return it }(), "aliases"},
		{"C1 in a tag", func() Item { it := wr("c1-tag", "C1", "b"); it.Tags = []string{"x\u009by"}; return it }(), "tags"},
		{"DEL in the quote", func() Item { it := wr("del-quote", "Del", "b"); it.SourceQuote = sp("quote\x7f"); return it }(), "source_quote"},
		{"a direction override in the title", wr("rlo-title", "evil \u202e txt.exe", "body"), "title"},
		{"an isolate in the body", wr("fsi-body", "FSI", "run \u2068rm -rf\u2069 now"), "body"},
	} {
		r := e.wantCode(tc.it, CodeControlChar)
		if r.Args["Field"] != tc.field {
			t.Errorf("%s: field %v, want %s", tc.name, r.Args["Field"], tc.field)
		}
	}
	e.ok(wr("tabs-and-lines", "Tabs", "a\tb\nc\r\nd"))
	// An update is checked the same way.
	w := e.ok(wr("to-update", "Update", "clean"))
	e.wantCode(Item{Op: OpUpdate, ID: w.ID, Body: sp("now \x1b[2J dirty")}, CodeControlChar)
	// A hand-placed file: reported, untouched.
	data := handFile("01JB0000000000000000000777", "Hand", "bell \a here")
	e.put("global/user/hand-bell.md", data)
	e.reconcile()
	if p := e.problemAt("global/user/hand-bell.md"); p == nil || p.Code != ProblemHandControl || p.Detail != "body" {
		t.Fatalf("hand file with a bell: %+v", p)
	}
	if got := e.file("global/user/hand-bell.md"); string(got) != string(data) {
		t.Fatal("the hand file was touched")
	}
}

// The byte scan finds exactly the runes it means: every rune below 0x100 and a sample beyond.
func TestHasControlMatchesRunes(t *testing.T) {
	isControl := func(r rune) bool {
		return r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f || r >= 0x80 && r <= 0x9f ||
			r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
	}
	for r := rune(0); r < 0x3000; r++ {
		s := "a" + string(r) + "b"
		if got := hasControl(s); got != isControl(r) {
			t.Errorf("U+%04X: %v", r, got)
		}
	}
	for _, s := range []string{"中文 text", "é", "\u00a0", "emoji 🙂", "\xc2", "\xe2\x80", "שלום \u200f עולם", "a\u2069"[:3]} {
		if hasControl(s) {
			t.Errorf("%q holds no control character", s)
		}
	}
}
