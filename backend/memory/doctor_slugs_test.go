package memory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Two files of one slug in one scope (global/user/tea.md beside global/reference/tea.md, a copy
// or two machines' writes met by a sync) were both indexed with nothing said, while a slug
// reaches one only: doctor names the other with the mv to a free slug, and is not OK. A file
// whose name is no slug gets the mv to the slug its name makes, not "SLUG.md".
func TestDoctorNamesFilesSharingASlug(t *testing.T) {
	e := newEnv(t)
	first := e.ok(wr("丽江", "丽江 notes", "Old town."))
	e.ok(wr("丽江-2", "taken", "the first free suffix is taken"))
	e.put("global/reference/丽江.md", []byte("# 丽江 again\n\nPlaced by hand.\n"))
	e.put("global/user/咖啡Café.md", []byte("a note\n"))
	e.put("global/user/Upper-Case.md", []byte("a note\n"))
	e.reconcile()
	rep := e.doctor()
	if rep.OK {
		t.Error("doctor is OK with two memories of one slug")
	}
	var shared []Finding
	fixes := map[string]string{}
	for _, f := range rep.Findings {
		if f.Code == "slug_shared" {
			shared = append(shared, f)
		}
		fixes[f.Path] = f.Fix
	}
	if m, err := e.s.GetBySlug(e.ctx, ScopeGlobal, "", "", "丽江"); err != nil || m.ID != first.ID {
		t.Fatalf("the slug reaches %+v, %v; want the older memory %s", m, err, first.ID)
	}
	dir := filepath.Join(e.home, "memory", "global")
	if len(shared) != 1 || shared[0].Path != "global/reference/丽江.md" || shared[0].Args["Other"] != "global/user/丽江.md" ||
		!strings.Contains(shared[0].Fix, "'"+filepath.Join(dir, "reference", "丽江-3.md")+"'") {
		t.Fatalf("shared slug findings: %+v", shared)
	}
	if fix := fixes["global/user/咖啡Café.md"]; !strings.Contains(fix, filepath.Join(dir, "user", "咖啡caf-")) {
		t.Errorf("fix for 咖啡Café.md: %q", fix)
	}
	if fix := fixes["global/user/Upper-Case.md"]; !strings.Contains(fix, filepath.Join(dir, "user", "upper-case.md")) {
		t.Errorf("fix for Upper-Case.md: %q", fix)
	}
	// Renamed as told: no finding left.
	e.put("global/reference/丽江-3.md", []byte("# 丽江 again\n\nPlaced by hand.\n"))
	if err := os.Remove(filepath.Join(e.home, "memory", "global", "reference", "丽江.md")); err != nil {
		t.Fatal(err)
	}
	e.reconcile()
	for _, f := range e.doctor().Findings {
		if f.Code == "slug_shared" {
			t.Errorf("after the rename: %+v", f)
		}
	}
}
