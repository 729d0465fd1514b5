package memory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"engram/backend/memory/format"
)

// A write without a slug dropped the Chinese of its title: "张三 works at 阿里巴巴" was saved
// as works-at-7f9fbb08.md and "喜欢川菜" as memory-<hash>.md, names that say nothing to the
// person owning the files. The file now keeps the title's words; the same title written or
// imported before (under its old slug) is still taken or already present, never a second
// memory; a hand-placed file named in Chinese is a memory; an existing file keeps its name.
func TestChineseTitlesNameTheirFiles(t *testing.T) {
	e := newEnv(t)
	for title, want := range map[string]string{
		"张三 works at 阿里巴巴": "张三-works-at-阿里巴巴",
		"喜欢川菜":             "喜欢川菜",
	} {
		r := e.ok(wr("", title, "body of "+title))
		if r.Slug != want {
			t.Errorf("write %q: slug %q, want %q", title, r.Slug, want)
		}
		if _, err := os.Stat(filepath.Join(e.home, "memory", "global", "user", want+".md")); err != nil {
			t.Errorf("write %q: %v", title, err)
		}
	}

	// Written by an older build under the old slug: the same title is taken, under that slug.
	legacy := format.LegacySlugFromTitle("猫")
	e.ok(wr(legacy, "猫", "Has a cat named Mimi"))
	if r := e.do(wr("", "猫", "Has a cat named Mimi")); r.OK || r.Code != CodeAlreadyExists || r.Args["Slug"] != legacy {
		t.Errorf("the same title as an old slug: ok=%v code=%s args=%v", r.OK, r.Code, r.Args)
	}
	// Imported again (the importers send the title's new slug): already present, not new.
	line := `{"slug":"猫","title":"猫","scope":"global","type":"user","body":"Has a cat named Mimi"}`
	rep, err := e.s.Import(e.ctx, strings.NewReader(line+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Imported != 0 || rep.Duplicates != 1 {
		t.Errorf("re-import of an old slug's memory: %+v", rep)
	}
	// Other text under the title is another memory: it is written under the new slug.
	line = `{"slug":"猫","title":"猫","scope":"global","type":"user","body":"Wants a second cat"}`
	if rep, err := e.s.Import(e.ctx, strings.NewReader(line+"\n")); err != nil || rep.Imported != 1 {
		t.Errorf("import of other text: %+v %v", rep, err)
	}

	// A file placed by hand with a Chinese name is a memory (it was "no slug").
	e.put("global/user/喜欢喝茶.md", []byte("# 喜欢喝茶\n\n每天下午喝乌龙茶。\n"))
	e.reconcile()
	m, err := e.s.GetBySlug(e.ctx, ScopeGlobal, "", "", "喜欢喝茶")
	if err != nil || !strings.Contains(m.Body, "乌龙茶") {
		t.Fatalf("hand-placed 喜欢喝茶.md: %v %+v", err, m)
	}
	// Renames to and from a Chinese slug move the file and keep the id.
	r := e.ok(Item{Op: OpUpdate, Scope: ScopeGlobal, Slug: "喜欢喝茶", NewSlug: "乌龙茶"})
	if got, err := e.s.GetBySlug(e.ctx, ScopeGlobal, "", "", "乌龙茶"); err != nil || got.ID != m.ID || r.Slug != "乌龙茶" {
		t.Fatalf("renamed: %v %+v %+v", err, got, r)
	}
	if _, err := os.Stat(filepath.Join(e.home, "memory", "global", "user", "喜欢喝茶.md")); !os.IsNotExist(err) {
		t.Errorf("the old file is still there: %v", err)
	}
}
