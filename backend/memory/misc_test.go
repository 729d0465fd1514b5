package memory

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSnippet(t *testing.T) {
	body := strings.Repeat("filler words here ", 40) + "the needle sits here " + strings.Repeat("more filler ", 40)
	s := Snippet(body, "NEEDLE", 80)
	if !strings.Contains(s, "needle") || !strings.HasPrefix(s, "…") || !strings.HasSuffix(s, "…") {
		t.Fatalf("snippet %q", s)
	}
	if n := utf8.RuneCountInString(s); n > 82 {
		t.Fatalf("snippet of %d characters", n)
	}
	if s := Snippet("short   body\n\nhere", "x", 80); s != "short body here" {
		t.Fatalf("short snippet %q", s)
	}
	cjk := strings.Repeat("无关的文字", 40) + "绿茶" + strings.Repeat("其他内容", 40)
	if s := Snippet(cjk, "绿茶", 30); !strings.Contains(s, "绿茶") || !utf8.ValidString(s) {
		t.Fatalf("CJK snippet %q", s)
	}
}

func TestEvents(t *testing.T) {
	e := newEnv(t)
	var got []Event
	cancel := e.s.Subscribe(func(ev Event) { got = append(got, ev) })
	r := e.ok(wr("evented", "t", "b"))
	failed := e.do(wr("Bad Slug", "t", "b"))
	if failed.OK {
		t.Fatal("bad slug accepted")
	}
	var changed [][]string
	for _, ev := range got {
		if ev.Kind == "memory.changed" {
			changed = append(changed, ev.IDs)
		}
	}
	if len(changed) != 1 || len(changed[0]) != 1 || changed[0][0] != r.ID {
		t.Fatalf("memory.changed events %v", changed)
	}
	cancel()
	n := len(got)
	e.ok(wr("after-cancel", "t", "b"))
	if len(got) != n {
		t.Fatal("events delivered after cancel")
	}
}
