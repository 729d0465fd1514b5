package memory

import (
	"encoding/json"
	"strings"
	"testing"

	"engram/backend/memory/format"
)

// A slug Windows reserves as a device name (con, prn, aux, nul, com1–9, lpt1–9) was accepted:
// a store synced to a Windows machine (git, Syncthing, a shared folder) cannot hold con.md.
// Every way to a new file refuses it with reserved_slug (write, rename, import); a title
// gets a slug that is not one; a file already named so on disk is still indexed, read and
// edited in place.
func TestWindowsReservedSlugs(t *testing.T) {
	e := newEnv(t)
	e.ok(wr("abc", "t", "b"))
	reserved := []string{"con", "prn", "aux", "nul", "com1", "com5", "com9", "lpt1", "lpt9"}
	for _, s := range reserved {
		if !format.ReservedSlug(s) {
			t.Errorf("ReservedSlug(%q) = false", s)
		}
		if r := e.do(wr(s, "t", "b")); r.OK || r.Code != CodeReservedSlug || r.Args["Suggest"] != s+"-memory" {
			t.Errorf("write %q: ok=%v code=%s args=%v", s, r.OK, r.Code, r.Args)
		}
		if r := e.do(Item{Op: OpUpdate, Slug: "abc", Scope: ScopeGlobal, NewSlug: s}); r.OK || r.Code != CodeReservedSlug {
			t.Errorf("rename to %q: ok=%v code=%s", s, r.OK, r.Code)
		}
		line := `{"slug":"` + s + `","title":"t","scope":"global","type":"user","body":"b"}`
		rep, err := e.s.Import(e.ctx, strings.NewReader(line+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		if rep.Imported != 0 || len(rep.Errors) != 1 || rep.Errors[0].Code != CodeReservedSlug {
			t.Errorf("import %q: %+v", s, rep)
		}
		// A title that would make the name gets another slug.
		if got := format.SlugFromTitle(strings.ToUpper(s)); format.ReservedSlug(got) || !ValidSlug(got) {
			t.Errorf("SlugFromTitle(%q) = %q", strings.ToUpper(s), got)
		}
	}
	for _, s := range []string{"com0", "lpt0", "console", "con-notes", "auxiliary", "nul-1", "com10"} {
		if format.ReservedSlug(s) {
			t.Errorf("ReservedSlug(%q) = true", s)
		}
		if r := e.do(wr(s, "t", "b")); !r.OK {
			t.Errorf("write %q: %s", s, r.Code)
		}
	}
	if r := e.do(wr("", "Con", "b")); !r.OK || r.Slug == "con" {
		t.Errorf("write titled Con: ok=%v slug=%q code=%s", r.OK, r.Slug, r.Code)
	}
	// A con.md placed by hand (on Linux, by an older build) is never lost.
	e.put("global/user/con.md", []byte("---\ntitle: Console notes\nscope: global\ntype: user\n---\nUse the serial console.\n"))
	e.reconcile()
	m, err := e.s.GetBySlug(e.ctx, ScopeGlobal, "", "", "con")
	if err != nil || m.Body != "Use the serial console." {
		t.Fatalf("hand-placed con.md: %v %+v", err, m)
	}
	e.ok(Item{Op: OpUpdate, ID: m.ID, Mode: "replace", Body: sp("Use the serial console at 115200.")})
	e.ok(Item{Op: OpUpdate, ID: m.ID, NewSlug: "console-notes"})
	if e.exists("global/user/con.md") || !e.exists("global/user/console-notes.md") {
		t.Error("renaming con.md away did not move it")
	}
}

// An agent named as a Windows device (con, aux.bot, com1.) made a folder agents/con that a
// store synced to Windows cannot hold. A new agent folder of such a name is refused with
// reserved_agent (a memory, a KV entry); one already on disk is still read and written.
func TestWindowsReservedAgents(t *testing.T) {
	e := newEnv(t)
	agentItem := func(agent, slug string) Item {
		it := wr(slug, "t", "b")
		it.Scope, it.Agent = ScopeAgent, agent
		return it
	}
	for _, a := range []string{"con", "aux.bot", "com1.", "nul", "lpt9.x"} {
		if !format.ReservedAgent(a) {
			t.Errorf("ReservedAgent(%q) = false", a)
		}
		if r := e.do(agentItem(a, "note")); r.OK || r.Code != CodeReservedAgent || r.Args["Suggest"] == "" {
			t.Errorf("write as agent %q: ok=%v code=%s args=%v", a, r.OK, r.Code, r.Args)
		}
		if _, err := e.s.KVSet(e.ctx, KVChange{Agent: a, Key: "k", Value: json.RawMessage(`"v"`)}); err == nil || !strings.Contains(err.Error(), "reserves") {
			t.Errorf("kv_set as agent %q: %v", a, err)
		}
	}
	for _, a := range []string{"console", "codex", "aux-bot", "com10", "bot.con"} {
		if format.ReservedAgent(a) {
			t.Errorf("ReservedAgent(%q) = true", a)
		}
	}
	e.ok(agentItem("codex", "note"))
	// agents/con made by hand (on Linux, by an older build): read, and written to.
	e.put("agents/con/user/old.md", []byte("---\ntitle: Old\nscope: agent\ntype: user\n---\nKept.\n"))
	e.reconcile()
	if m, err := e.s.GetBySlug(e.ctx, ScopeAgent, "", "con", "old"); err != nil || m.Body != "Kept." {
		t.Fatalf("hand-made agents/con: %v %+v", err, m)
	}
	e.ok(agentItem("con", "new-note"))
}
