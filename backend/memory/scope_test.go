package memory

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

func TestScopePaths(t *testing.T) {
	e := newEnv(t)
	base := t.TempDir()
	wd := filepath.Join(base, "projects", "engram")
	if err := os.MkdirAll(wd, 0o755); err != nil {
		t.Fatal(err)
	}
	canon, err := filepath.EvalSymlinks(wd)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(canon))
	key := hex.EncodeToString(sum[:])[:16]
	if got := ProjectKey(canon); got != key {
		t.Fatalf("ProjectKey = %s, want %s", got, key)
	}

	g := e.ok(wr("same-slug", "global", "global body"))
	p := e.ok(Item{Op: OpWrite, Scope: ScopeProject, Workdir: wd, Type: TypeProject, Slug: "same-slug", Title: sp("project"), Body: sp("project body")})
	a := e.ok(Item{Op: OpWrite, Scope: ScopeAgent, Agent: "claude", Type: TypeReference, Slug: "same-slug", Title: sp("agent"), Body: sp("agent body")})
	if g.Path != "global/user/same-slug.md" {
		t.Errorf("global path %s", g.Path)
	}
	if want := "projects/" + key + "/project/same-slug.md"; p.Path != want {
		t.Errorf("project path %s, want %s", p.Path, want)
	}
	if a.Path != "agents/claude/reference/same-slug.md" {
		t.Errorf("agent path %s", a.Path)
	}
	for _, r := range []ItemResult{g, p, a} {
		if !e.exists(r.Path) {
			t.Errorf("%s not on disk", r.Path)
		}
	}
	pm := e.parsed(p.Path)
	if pm.Scope != ScopeProject || pm.Workdir != canon || pm.Agent != "" {
		t.Errorf("project frontmatter: scope %s workdir %q agent %q", pm.Scope, pm.Workdir, pm.Agent)
	}
	am := e.parsed(a.Path)
	if am.Scope != ScopeAgent || am.Agent != "claude" || am.Workdir != "" {
		t.Errorf("agent frontmatter: %+v", am)
	}
	if e.get(p.ID).Workdir != canon {
		t.Error("index lost the workdir")
	}
	// the index records the workdir of a key.
	var recorded string
	if err := e.s.db.QueryRow(`SELECT workdir FROM projects WHERE key = ?`, key).Scan(&recorded); err != nil || recorded != canon {
		t.Errorf("projects row: %q %v", recorded, err)
	}

	// other spellings of the same folder are the same project.
	link := filepath.Join(base, "link-to-engram")
	if err := os.Symlink(wd, link); err != nil {
		t.Fatal(err)
	}
	for _, spelling := range []string{link, wd + "/", base + "/projects/./engram", base + "//projects/x/../engram"} {
		c, err := CanonicalWorkdir(spelling)
		if err != nil || ProjectKey(c) != key {
			t.Errorf("%s: key %s, want %s (%v)", spelling, ProjectKey(c), key, err)
		}
		m, err := e.s.GetBySlug(e.ctx, ScopeProject, spelling, "", "same-slug")
		if err != nil || m.ID != p.ID {
			t.Errorf("GetBySlug via %s: %v", spelling, err)
		}
		e.wantCode(Item{Op: OpWrite, Scope: ScopeProject, Workdir: spelling, Type: TypeUser, Slug: "same-slug", Title: sp("t"), Body: sp("b")}, CodeAlreadyExists)
	}
	// a workdir that does not exist (yet) still gets a stable key from its clean form.
	gone := filepath.Join(base, "not-there")
	r := e.ok(Item{Op: OpWrite, Scope: ScopeProject, Workdir: gone + "/", Type: TypeProject, Slug: "future", Title: sp("t"), Body: sp("b")})
	if !strings.HasPrefix(r.Path, "projects/"+ProjectKey(gone)+"/") {
		t.Errorf("missing workdir path %s", r.Path)
	}
}

func TestFilterVisibility(t *testing.T) {
	e := newEnv(t)
	wdA, wdB := t.TempDir(), t.TempDir()
	mk := func(slug string, scope Scope, wd, agent string) {
		e.ok(Item{Op: OpWrite, Scope: scope, Workdir: wd, Agent: agent, Type: TypeUser, Slug: slug,
			Title: sp(slug), Body: sp("shared keyword marmalade in " + slug)})
	}
	mk("global-one", ScopeGlobal, "", "")
	mk("project-a", ScopeProject, wdA, "")
	mk("project-b", ScopeProject, wdB, "")
	mk("agent-claude", ScopeAgent, "", "claude")
	mk("agent-codex", ScopeAgent, "", "codex")
	e.ok(Item{Op: OpAppendDaily, Text: "marmalade for breakfast"})
	arch := e.ok(Item{Op: OpWrite, Scope: ScopeGlobal, Type: TypeUser, Slug: "archived-one", Title: sp("a"), Body: sp("marmalade archived")})
	e.ok(Item{Op: OpArchive, ID: arch.ID})
	day := JournalDay(e.clock.Now(), time.UTC)

	cases := []struct {
		name string
		f    Filter
		want []string
	}{
		{"everything live", Filter{}, []string{"agent-claude", "agent-codex", day, "global-one", "project-a", "project-b"}},
		{"workdir A + claude", Filter{Workdir: wdA, Agent: "claude"}, []string{"agent-claude", day, "global-one", "project-a"}},
		{"workdir A only", Filter{Workdir: wdA}, []string{day, "global-one", "project-a"}},
		{"agent codex only", Filter{Agent: "codex"}, []string{"agent-codex", day, "global-one"}},
		{"project scope A", Filter{Scope: ScopeProject, Workdir: wdA}, []string{"project-a"}},
		{"project scope any", Filter{Scope: ScopeProject}, []string{"project-a", "project-b"}},
		{"agent scope any", Filter{Scope: ScopeAgent}, []string{"agent-claude", "agent-codex"}},
		{"agent scope claude", Filter{Scope: ScopeAgent, Agent: "claude"}, []string{"agent-claude"}},
		{"global scope", Filter{Scope: ScopeGlobal}, []string{day, "global-one"}},
		{"global no daily", Filter{Scope: ScopeGlobal, NoDaily: true}, []string{"global-one"}},
		{"type daily", Filter{Type: TypeDaily}, []string{day}},
		{"archived", Filter{Archived: true}, []string{"archived-one"}},
		{"unreviewed", Filter{Reviewed: bp(false)}, nil},
	}
	for _, tc := range cases {
		sort.Strings(tc.want)
		t.Run(tc.name, func(t *testing.T) {
			list, total, err := e.s.List(e.ctx, tc.f)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range list {
				got = append(got, m.Slug)
			}
			sort.Strings(got)
			if strings.Join(got, ",") != strings.Join(tc.want, ",") || total != len(tc.want) {
				t.Errorf("List = %v (total %d), want %v", got, total, tc.want)
			}
			hits, err := e.lexical("marmalade", tc.f)
			if err != nil {
				t.Fatal(err)
			}
			got = hitSlugs(hits)
			sort.Strings(got)
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("Search = %v, want %v", got, tc.want)
			}
		})
	}
	for _, f := range []Filter{{Scope: "galaxy"}, {Workdir: "relative/dir"}, {Type: "nope"}} {
		if _, _, err := e.s.List(e.ctx, f); err == nil {
			t.Errorf("List(%+v) accepted an invalid filter", f)
		}
		if _, err := e.lexical("marmalade", f); err == nil {
			t.Errorf("Search(%+v) accepted an invalid filter", f)
		}
	}
	// paging.
	page, total, _ := e.s.List(e.ctx, Filter{Limit: 2, Offset: 1})
	if len(page) != 2 || total != 6 {
		t.Errorf("page of 2 at 1: %d items, total %d", len(page), total)
	}
}
