package recall

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"engram/backend/memory"
)

// clone makes dir look like a git clone whose origin is url (what the resolver reads).
func clone(t *testing.T, url string, parts ...string) string {
	t.Helper()
	dir := filepath.Join(parts...)
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := "[remote \"origin\"]\n\turl = " + url + "\n"
	if err := os.WriteFile(filepath.Join(dir, ".git", "config"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	canon, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return canon
}

func toolSlugs(t *testing.T, r ToolResult) []string {
	t.Helper()
	if !r.OK {
		t.Fatalf("tool call failed: %+v", r.Error)
	}
	var out []string
	switch v := r.Result.(type) {
	case map[string]any:
		if hits, ok := v["hits"].([]ToolHit); ok {
			for _, h := range hits {
				out = append(out, h.Slug)
			}
		}
		if items, ok := v["items"].([]ToolHit); ok {
			for _, h := range items {
				out = append(out, h.Slug)
			}
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Every model-facing path (the tool's search and list, the Memory Index, build_context) places
// the caller's project by its identity: two clones of one repository at different paths, with
// origin spelt over SSH and HTTPS, see the same project memories; an unrelated repository
// does not, whatever its model asks for or its id file says.
func TestVisibilityByProjectIdentity(t *testing.T) {
	e := newEnv(t)
	base := t.TempDir()
	a := clone(t, "git@github.com:acme/widget.git", base, "a", "proj")
	b := clone(t, "https://github.com/acme/widget", base, "b", "widget-2")
	c := clone(t, "git@github.com:acme/other.git", base, "c", "proj")
	e.write(mem{scope: memory.ScopeProject, workdir: a, typ: memory.TypeProject, slug: "release-train",
		title: "Release train", body: "Releases leave every second Tuesday from the main branch."})
	const query = `{"action":"search","query":"release tuesday"}`

	if got := toolSlugs(t, call(t, e, ToolEnv{Workdir: b}, query)); !contains(got, "release-train") {
		t.Fatalf("clone b's search: %v", got)
	}
	if got := toolSlugs(t, call(t, e, ToolEnv{Workdir: b}, `{"action":"list","scope":"project"}`)); !contains(got, "release-train") {
		t.Fatalf("clone b's list: %v", got)
	}
	ov, err := e.svc.Overview(e.ctx, OverviewParams{Workdir: b})
	if err != nil || !strings.Contains(ov.Index, "release-train") {
		t.Fatalf("clone b's Memory Index: %v\n%s", err, ov.Index)
	}
	cx, err := e.svc.BuildContext(e.ctx, ContextParams{Query: "when do releases leave", Workdir: b})
	if err != nil || len(cx.Entries) == 0 || cx.Entries[0].Slug != "release-train" {
		t.Fatalf("clone b's build_context: %v %+v", err, cx.Entries)
	}

	unrelated := func(why string) {
		t.Helper()
		if got := toolSlugs(t, call(t, e, ToolEnv{Workdir: c}, query)); contains(got, "release-train") {
			t.Fatalf("%s: the unrelated project's search shows it: %v", why, got)
		}
		if got := toolSlugs(t, call(t, e, ToolEnv{Workdir: c}, `{"action":"list","scope":"project"}`)); len(got) != 0 {
			t.Fatalf("%s: the unrelated project lists %v", why, got)
		}
		ov, err := e.svc.Overview(e.ctx, OverviewParams{Workdir: c})
		if err != nil || strings.Contains(ov.Index, "release-train") {
			t.Fatalf("%s: the unrelated Memory Index shows it: %v", why, err)
		}
		// The model names the other clone's folder: refused, never widened.
		r := call(t, e, ToolEnv{Workdir: c}, `{"action":"search","query":"release tuesday","workdir":"`+a+`"}`)
		if r.OK || r.Error.Code != CodeScopeNotVisible {
			t.Fatalf("%s: a model's workdir argument widened the view: %+v", why, r)
		}
		r = call(t, e, ToolEnv{Workdir: c}, `{"action":"read","slug":"release-train"}`)
		if r.OK {
			t.Fatalf("%s: the unrelated project reads it", why)
		}
	}
	unrelated("remote")
	// An id file crafted to escape or to borrow the other repository's identity changes nothing.
	for _, id := range []string{"../a/proj", "github.com/acme/widget", "../../" + a} {
		if err := os.WriteFile(filepath.Join(c, memory.ProjectIDFile), []byte(id+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		e.store.Projects().Forget()
		unrelated("id file " + id)
	}
}
