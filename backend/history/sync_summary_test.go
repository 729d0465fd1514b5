package history

import (
	"context"
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"

	"engram/backend/memory"
)

// filesOf is every versioned file of a memory folder (memories, journal days, kv.json) by its
// content's sum.
func filesOf(t *testing.T, root string) map[string][32]byte {
	t.Helper()
	out := map[string][32]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		if !tracked(rel) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[rel] = sha256.Sum256(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// changedFiles lists the paths that differ between two filesOf.
func changedFiles(before, after map[string][32]byte) []string {
	var out []string
	for p, s := range after {
		if b, ok := before[p]; !ok || b != s {
			out = append(out, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// mergeCommit is the newest sync merge of a memory folder's history.
func mergeCommit(t *testing.T, root string) *object.Commit {
	t.Helper()
	repo, err := git.PlainOpen(root)
	if err != nil {
		t.Fatal(err)
	}
	iter, err := repo.Log(&git.LogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var found *object.Commit
	_ = iter.ForEach(func(c *object.Commit) error {
		if found == nil && strings.HasPrefix(c.Message, "sync: merge ") {
			found = c
		}
		return nil
	})
	if found == nil {
		t.Fatal("no merge commit")
	}
	return found
}

// conflictingMachines is QA's setup: A and B share memory tea through a bare remote, then
// each changes tea, appends to the journal, sets kv key k of agent a to its own value and a
// key only it has. A syncs first (and pushes); B's sync merges.
func conflictingMachines(t *testing.T) (a *memory.Store, ra *Repo, b *memory.Store, rb *Repo, pushedByA string) {
	t.Helper()
	ctx := context.Background()
	_, bare, a, ra, b, rb := twoMachines(t)
	write(t, a, memory.ActorUser, newMem("tea", "Likes green tea."))
	kvSet(t, a, "a", "k", `"base"`)
	if _, err := ra.Sync(ctx, a, bare); err != nil {
		t.Fatal(err)
	}
	if _, err := rb.Sync(ctx, b, bare); err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct {
		st   *memory.Store
		name string
	}{{a, "A"}, {b, "B"}} {
		write(t, m.st, memory.ActorUser, memory.Item{Op: memory.OpUpdate, Slug: "tea", Scope: memory.ScopeGlobal, Mode: "replace", Body: str("Likes tea from " + m.name + ".")})
		write(t, m.st, memory.ActorUser, memory.Item{Op: memory.OpAppendDaily, Text: "A line from " + m.name + "."})
		kvSet(t, m.st, "a", "k", `"from`+m.name+`"`)
		kvSet(t, m.st, "a", "only"+m.name, `"`+m.name+`"`)
	}
	sa, err := ra.Sync(ctx, a, "")
	if err != nil || !sa.Pushed {
		t.Fatalf("A's sync = %+v, %v", sa, err)
	}
	return a, ra, b, rb, sa.Head
}

// B's sync merges: its summary and its merge commit's subject give one count, which is the
// files the sync changed in B's folder (the journal day, kv.json and the conflict copy), and
// the kv key both set is a conflict like tea, named with its agent and both values. Before,
// B printed 1 file changed (only the journal day) while the subject said "2 changed,
// 1 conflicts": the copy was not counted, nor the key as a conflict.
func TestSyncSummaryMatchesTheMergeCommit(t *testing.T) {
	ctx := context.Background()
	_, _, b, rb, pushedByA := conflictingMachines(t)
	before := filesOf(t, b.Root())
	res, err := rb.Sync(ctx, b, "")
	if err != nil || !res.Merged || !res.Pushed {
		t.Fatalf("B's sync = %+v, %v", res, err)
	}
	changed := changedFiles(before, filesOf(t, b.Root()))
	if res.Changed != len(changed) {
		t.Fatalf("B's sync counts %d changed files, the folder has %d: %q", res.Changed, len(changed), changed)
	}
	if res.Memories != 0 || res.Days != 1 || res.KVFiles != 1 || res.Copies != 1 || res.Changed != 3 {
		t.Fatalf("counts by kind = %+v", res)
	}
	subject := strings.SplitN(mergeCommit(t, b.Root()).Message, "\n", 2)[0]
	want := "sync: merge " + res.Remote + " (3 changed: 1 journal day, 1 kv file, 1 conflict copy; 2 conflicts)"
	if subject != want {
		t.Fatalf("merge subject %q, want %q", subject, want)
	}
	if len(res.Conflicts) != 2 {
		t.Fatalf("conflicts %+v", res.Conflicts)
	}
	var key, mem *Conflict
	for i, c := range res.Conflicts {
		if c.Key != "" {
			key = &res.Conflicts[i]
		} else {
			mem = &res.Conflicts[i]
		}
	}
	if key == nil || key.Path != "agents/a/kv.json" || key.Agent != "a" || key.Key != "k" ||
		key.Value != `"fromB"` || key.Other != `"fromA"` || key.Theirs != pushedByA {
		t.Fatalf("kv conflict %+v, want agent a, key k, fromB kept, fromA in %s", key, pushedByA)
	}
	if mem == nil || mem.Slug != "tea" || !strings.HasPrefix(mem.Copy, "tea-conflict-") || mem.CopyError != "" {
		t.Fatalf("memory conflict %+v", mem)
	}
	if len(res.Replaced) != 0 {
		t.Fatalf("the merging machine lost nothing, yet replaced = %+v", res.Replaced)
	}
	page, err := b.KVList(ctx, "a", "", "", 10)
	if err != nil || len(page.Entries) != 3 {
		t.Fatalf("B's keys %+v, %v", page.Entries, err)
	}
}

// A's next sync fast-forwards to B's merge: tea, the journal day, kv.json and the copy of A's
// tea change on A, and what B's merge decided against A is said: k is fromB here now, A's
// fromA in A's own pushed commit; tea is B's version, A's kept as the copy. It used to say
// only "Took 3 changed files" (kv.json not counted) and nothing of k or tea.
func TestFastForwardNamesWhatTheOtherMachineReplaced(t *testing.T) {
	ctx := context.Background()
	a, ra, b, rb, pushedByA := conflictingMachines(t)
	mb, err := rb.Sync(ctx, b, "")
	if err != nil {
		t.Fatal(err)
	}
	before := filesOf(t, a.Root())
	res, err := ra.Sync(ctx, a, "")
	if err != nil || !res.FastForward || res.Merged {
		t.Fatalf("A's sync = %+v, %v", res, err)
	}
	changed := changedFiles(before, filesOf(t, a.Root()))
	if res.Changed != len(changed) || res.Changed != 4 {
		t.Fatalf("A's sync counts %d changed files, the folder has %q", res.Changed, changed)
	}
	if res.Memories != 1 || res.Days != 1 || res.KVFiles != 1 || res.Copies != 1 {
		t.Fatalf("counts by kind = %+v", res)
	}
	if len(res.Conflicts) != 0 || len(res.Replaced) != 2 {
		t.Fatalf("conflicts %+v, replaced %+v", res.Conflicts, res.Replaced)
	}
	var copySlug string
	for _, c := range mb.Conflicts {
		copySlug += c.Copy
	}
	for _, c := range res.Replaced {
		switch {
		case c.Key != "":
			if c.Path != "agents/a/kv.json" || c.Agent != "a" || c.Key != "k" || c.Value != `"fromB"` || c.Other != `"fromA"` || c.Theirs != pushedByA {
				t.Fatalf("replaced key %+v, want k fromB here, fromA in %s", c, pushedByA)
			}
		default:
			if c.Slug != "tea" || c.Copy != copySlug {
				t.Fatalf("replaced memory %+v, want tea with this machine's version as %s", c, copySlug)
			}
		}
	}
	if m, err := a.GetBySlug(ctx, memory.ScopeGlobal, "", "", copySlug); err != nil || m.Body != "Likes tea from A." {
		t.Fatalf("A's version as %s = %+v, %v", copySlug, m, err)
	}
	// A later change on B reaches A as a plain change: nothing of A's was replaced.
	kvSet(t, b, "a", "onlyB", `"B2"`)
	if _, err := rb.Sync(ctx, b, ""); err != nil {
		t.Fatal(err)
	}
	if res, err := ra.Sync(ctx, a, ""); err != nil || !res.FastForward || res.KVFiles != 1 || res.Changed != 1 || len(res.Replaced) != 0 {
		t.Fatalf("A's third sync = %+v, %v", res, err)
	}
}

// A merge whose other side brings nothing new for a file leaves it as it is: a journal day
// whose entries ours has already, a kv.json whose every key theirs changed ours changed too,
// are not counted as changed (the subject used to count them).
func TestMergeCountsOnlyFilesItChanges(t *testing.T) {
	ctx := context.Background()
	_, bare, a, ra, b, rb := twoMachines(t)
	kvSet(t, a, "a", "k", `"base"`)
	if _, err := ra.Sync(ctx, a, bare); err != nil {
		t.Fatal(err)
	}
	if _, err := rb.Sync(ctx, b, bare); err != nil {
		t.Fatal(err)
	}
	kvSet(t, a, "a", "k", `"fromA"`)
	kvSet(t, b, "a", "k", `"fromB"`)
	write(t, b, memory.ActorUser, newMem("only-b", "Written on B."))
	if _, err := ra.Sync(ctx, a, ""); err != nil {
		t.Fatal(err)
	}
	before := filesOf(t, b.Root())
	res, err := rb.Sync(ctx, b, "")
	if err != nil || !res.Merged {
		t.Fatalf("B's sync = %+v, %v", res, err)
	}
	if changed := changedFiles(before, filesOf(t, b.Root())); res.Changed != 0 || len(changed) != 0 {
		t.Fatalf("B's sync counts %d, changed %q", res.Changed, changed)
	}
	subject := strings.SplitN(mergeCommit(t, b.Root()).Message, "\n", 2)[0]
	if want := "sync: merge " + res.Remote + " (0 changed; 1 conflict)"; subject != want || len(res.Conflicts) != 1 {
		t.Fatalf("merge subject %q, want %q; conflicts %+v", subject, want, res.Conflicts)
	}
}

// When another machine pushes between B's fetch and push, B merges again: the result still
// counts the files the first merge changed (before, it held only the second attempt's count)
// and both attempts' conflicts, each file once.
func TestSyncMergedTwiceCountsBothAttempts(t *testing.T) {
	ctx := context.Background()
	a, ra, b, rb, _ := conflictingMachines(t)
	before := filesOf(t, b.Root())
	bGit := rb.gitDir()
	pushed := false
	t.Cleanup(func() { syncStageHook = nil })
	syncStageHook = func(at, gitDir string) {
		if at != "fetched" || gitDir != bGit || pushed {
			return
		}
		pushed = true
		kvSet(t, a, "a", "onlyA", `"A2"`)
		if s, err := ra.Sync(ctx, a, ""); err != nil || !s.Pushed {
			t.Errorf("A's push during B's sync = %+v, %v", s, err)
		}
	}
	res, err := rb.Sync(ctx, b, "")
	syncStageHook = nil
	if err != nil || !pushed || !res.Merged || !res.Pushed {
		t.Fatalf("B's sync = %+v, %v (A pushed meanwhile: %v)", res, err, pushed)
	}
	changed := changedFiles(before, filesOf(t, b.Root()))
	if res.Changed != len(changed) || res.Days != 1 || res.KVFiles != 1 || res.Copies != 1 || len(res.Conflicts) != 2 {
		t.Fatalf("B's sync = %+v, the folder changed %q", res, changed)
	}
	if page, err := b.KVList(ctx, "a", "", "", 10); err != nil || len(page.Entries) != 3 {
		t.Fatalf("B's keys %+v, %v", page, err)
	}
}

// A key only this machine changed since the base is no conflict, whatever else theirs
// changed in the file: it used to be reported as both changed (ours kept all the same).
func TestMergeKVKeyOnlyOursChangedIsNoConflict(t *testing.T) {
	base := []byte("{\n  \"k\": \"base\",\n  \"gone\": \"base\"\n}\n")
	ours := []byte("{\n  \"k\": \"mine\"\n}\n")
	theirs := []byte("{\n  \"k\": \"base\",\n  \"gone\": \"base\",\n  \"new\": 1\n}\n")
	merged, kept, _ := mergeKV("agents/a/kv.json", base, ours, theirs)
	if len(kept) != 0 {
		t.Fatalf("kept %q, want no conflict", kept)
	}
	got, err := memory.ParseKV("agents/a/kv.json", merged)
	if err != nil || len(got) != 2 || string(got["k"]) != `"mine"` || string(got["new"]) != "1" {
		t.Fatalf("merged %s, %v", merged, err)
	}
}
