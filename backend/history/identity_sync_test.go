package history

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"

	"engram/backend/memory"
	"engram/backend/recall"
)

// projectClone makes dir look like a git clone of the project whose origin is url.
func projectClone(t *testing.T, url string, parts ...string) string {
	t.Helper()
	dir := filepath.Join(parts...)
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".git", "config"), []byte("[remote \"origin\"]\n\turl = "+url+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	canon, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return canon
}

// visibleSlugs lists what a model working in workdir may see, through the one visibility
// function every model-facing path uses.
func visibleSlugs(t *testing.T, st *memory.Store, workdir string) []string {
	t.Helper()
	vis, err := recall.NewVisibility(recall.Caller{Workdir: workdir}, st.Projects())
	if err != nil {
		t.Fatal(err)
	}
	f := vis.Filter()
	f.NoDaily, f.Limit = true, 100
	ms, _, err := st.List(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range ms {
		if vis.Allows(m) {
			out = append(out, m.Slug)
		}
	}
	return out
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// twoMachines is two homes with history on, A and B, and the bare repository they sync
// through; base is the folder their project folders go under.
func twoMachines(t *testing.T) (base, bare string, a *memory.Store, ra *Repo, b *memory.Store, rb *Repo) {
	t.Helper()
	bare = filepath.Join(t.TempDir(), "remote.git")
	if _, err := git.PlainInit(bare, true); err != nil {
		t.Fatal(err)
	}
	base = t.TempDir()
	a, ra = openHome(t, filepath.Join(base, "home-a"), true)
	b, rb = openHome(t, filepath.Join(base, "home-b"), true)
	return base, bare, a, ra, b, rb
}

// Machine A has the repository cloned over SSH at one path, machine B over HTTPS at another.
// A project memory written on A reaches B by sync and is B's project memory there (and back);
// an unrelated project on B does not see it.
func TestProjectMemoriesFollowTheRepositoryAcrossMachines(t *testing.T) {
	ctx := context.Background()
	base, bare, a, ra, b, rb := twoMachines(t)
	wdA := projectClone(t, "git@github.com:acme/widget.git", base, "a", "proj")
	wdB := projectClone(t, "https://github.com/acme/widget", base, "b", "src", "widget")
	other := projectClone(t, "https://github.com/acme/other.git", base, "b", "src", "other")

	write(t, a, memory.ActorUser, memory.Item{Op: memory.OpWrite, Slug: "uses-postgres", Scope: memory.ScopeProject, Workdir: wdA,
		Type: memory.TypeProject, Title: str("Postgres"), Body: str("The service uses Postgres 16."), Confidence: memory.ConfidenceLow})
	if _, err := ra.Sync(ctx, a, bare); err != nil {
		t.Fatal(err)
	}
	if s, err := rb.Sync(ctx, b, bare); err != nil || len(s.Conflicts) != 0 {
		t.Fatalf("B's sync = %+v, %v", s, err)
	}
	if got := visibleSlugs(t, b, wdB); !has(got, "uses-postgres") {
		t.Fatalf("B's clone sees %v", got)
	}
	pm, err := b.GetBySlug(ctx, memory.ScopeProject, wdB, "", "uses-postgres")
	if err != nil || pm.Body != "The service uses Postgres 16." {
		t.Fatalf("B's project memory = %+v, %v", pm, err)
	}
	if got := visibleSlugs(t, b, other); has(got, "uses-postgres") {
		t.Fatalf("an unrelated project on B sees %v", got)
	}
	// B records its own folder for the key once it has used the project, and a search there
	// finds the memory.
	if got := b.ProjectWorkdir(ctx, pm.ScopeKey()); got != wdB {
		t.Fatalf("B's recorded workdir for %s = %q", pm.ScopeKey(), got)
	}
	svc := recall.New(b, recall.Options{Logger: quiet})
	res, err := svc.Search(ctx, recall.SearchParams{Query: "which database postgres", Workdir: wdB, Limit: 5, NoTouch: true})
	if err != nil || len(res.Hits) == 0 || res.Hits[0].Memory.Slug != "uses-postgres" {
		t.Fatalf("B's search = %+v, %v", res.Hits, err)
	}

	// And back: what B writes for its clone is A's project memory too.
	write(t, b, memory.ActorUser, memory.Item{Op: memory.OpWrite, Slug: "deploy-friday", Scope: memory.ScopeProject, Workdir: wdB,
		Type: memory.TypeProject, Title: str("Deploys"), Body: str("No deploys on Fridays."), Confidence: memory.ConfidenceLow})
	if _, err := rb.Sync(ctx, b, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := ra.Sync(ctx, a, ""); err != nil {
		t.Fatal(err)
	}
	if got := visibleSlugs(t, a, wdA); !has(got, "deploy-friday") || !has(got, "uses-postgres") {
		t.Fatalf("A's clone sees %v", got)
	}
}

// The same across machines for a project named by a committed id file (no remote): B's
// folder is the first on B to use the id, so it takes it and sees what A wrote, with no trust
// asked; a folder on B naming the id after that is kept apart.
func TestIDProjectMemoriesFollowAcrossMachines(t *testing.T) {
	ctx := context.Background()
	base, bare, a, ra, b, rb := twoMachines(t)
	idFolder := func(parts ...string) string {
		dir := filepath.Join(parts...)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, memory.ProjectIDFile), []byte("acme-widget\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		canon, err := filepath.EvalSymlinks(dir)
		if err != nil {
			t.Fatal(err)
		}
		return canon
	}
	wdA, wdB := idFolder(base, "a", "proj"), idFolder(base, "b", "src", "widget")
	write(t, a, memory.ActorUser, memory.Item{Op: memory.OpWrite, Slug: "uses-postgres", Scope: memory.ScopeProject, Workdir: wdA,
		Type: memory.TypeProject, Title: str("Postgres"), Body: str("The service uses Postgres 16."), Confidence: memory.ConfidenceLow})
	if _, err := ra.Sync(ctx, a, bare); err != nil {
		t.Fatal(err)
	}
	// A's folder is on machine A, not on B (both homes share this test's disk).
	if err := os.Rename(wdA, wdA+"-on-machine-a"); err != nil {
		t.Fatal(err)
	}
	if s, err := rb.Sync(ctx, b, bare); err != nil || len(s.Conflicts) != 0 {
		t.Fatalf("B's sync = %+v, %v", s, err)
	}
	if got := visibleSlugs(t, b, wdB); !has(got, "uses-postgres") {
		p, err := b.Project(wdB)
		t.Fatalf("B's folder sees %v (%+v %v)", got, p, err)
	}
	stranger := idFolder(base, "b", "downloads", "widget")
	if got := visibleSlugs(t, b, stranger); has(got, "uses-postgres") {
		t.Fatalf("a second folder on B naming the id sees %v", got)
	}
}

// A project an older build keyed by its path moves to its identity key in one history commit,
// which git reads as renames (same blobs, new paths).
func TestProjectMoveIsOneRenameCommit(t *testing.T) {
	ctx := context.Background()
	base := t.TempDir()
	home := filepath.Join(base, "home")
	st, _ := openHome(t, home, true)
	wd := filepath.Join(base, "proj")
	if err := os.MkdirAll(wd, 0o755); err != nil {
		t.Fatal(err)
	}
	wd, _ = filepath.EvalSymlinks(wd)
	write(t, st, memory.ActorUser,
		memory.Item{Op: memory.OpWrite, Slug: "first-note", Scope: memory.ScopeProject, Workdir: wd, Type: memory.TypeProject,
			Title: str("First"), Body: str("Kept by path."), Confidence: memory.ConfidenceLow},
		memory.Item{Op: memory.OpWrite, Slug: "second-note", Scope: memory.ScopeProject, Workdir: wd, Type: memory.TypeProject,
			Title: str("Second"), Body: str("Also kept by path."), Confidence: memory.ConfidenceLow})
	st.Close()

	projectClone(t, "git@example.com:team/repo.git", wd)
	st, _ = openHome(t, home, false) // history stays enabled: the repository is there
	p, err := memory.ResolveProject(wd)
	if err != nil {
		t.Fatal(err)
	}
	subjects := commits(t, st.Root())
	if !strings.HasPrefix(subjects[0], "project: move project "+p.PathKey+" to "+p.Key) {
		t.Fatalf("newest commit %q", subjects[0])
	}
	repo, err := git.PlainOpen(st.Root())
	if err != nil {
		t.Fatal(err)
	}
	head, _ := repo.Head()
	c, _ := repo.CommitObject(head.Hash())
	parent, _ := c.Parent(0)
	from, _ := parent.Tree()
	to, _ := c.Tree()
	changes, err := object.DiffTreeWithOptions(ctx, from, to, &object.DiffTreeOptions{DetectRenames: true})
	if err != nil {
		t.Fatal(err)
	}
	renames := 0
	for _, ch := range changes {
		if ch.From.Name != "" && ch.To.Name != "" && ch.From.Name != ch.To.Name &&
			strings.HasPrefix(ch.From.Name, "projects/"+p.PathKey+"/") && strings.HasPrefix(ch.To.Name, "projects/"+p.Key+"/") {
			renames++
		}
	}
	if renames != 2 || len(changes) != 2 {
		t.Fatalf("commit changes %v, want 2 renames", changes)
	}
	if got := visibleSlugs(t, st, wd); !has(got, "first-note") || !has(got, "second-note") {
		t.Fatalf("after the move %v", got)
	}
}
