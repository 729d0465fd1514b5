package history

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	git "github.com/go-git/go-git/v5"

	"engram/backend/memory"
)

// A pack is put in place whole, its index first, and replaces an index a killed writer left
// empty: go-git's writer kept such an index (it exists) and every read of the repository then
// failed with EOF. A writer abandoned halfway (killed) leaves only its temporary file, which
// no reader lists.
func TestPacksLandWhole(t *testing.T) {
	ctx := context.Background()
	st, r := openHome(t, t.TempDir(), true)
	write(t, st, memory.ActorUser, newMem("tea", "Drinks green tea."))
	write(t, st, memory.ActorUser, newMem("coffee", "No coffee after noon."))
	bare := func() string {
		dir := filepath.Join(t.TempDir(), "remote.git")
		if _, err := git.PlainInit(dir, true); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	packs := func(dir string) []string {
		names, _ := filepath.Glob(filepath.Join(dir, "objects", "pack", "*"))
		for i, n := range names {
			names[i] = filepath.Base(n)
		}
		return names
	}
	first := bare()
	if s, err := r.Sync(ctx, st, first); err != nil || !s.Pushed {
		t.Fatalf("first push = %+v, %v", s, err)
	}
	var idx string
	for _, n := range packs(first) {
		if strings.HasSuffix(n, ".idx") {
			idx = n
		}
	}
	if idx == "" || len(packs(first)) != 2 {
		t.Fatalf("packs after a push: %v, want one pack and its index", packs(first))
	}

	// The same objects pushed to another remote make the same pack: an empty index of that
	// name, as a killed writer left it, is replaced.
	second := bare()
	if err := os.WriteFile(filepath.Join(second, "objects", "pack", idx), nil, 0o444); err != nil {
		t.Fatal(err)
	}
	if s, err := r.Sync(ctx, st, second); err != nil || !s.Pushed {
		t.Fatalf("push over an empty index = %+v, %v", s, err)
	}
	remote, err := openLocal(second)
	if err != nil {
		t.Fatal(err)
	}
	head := branchOf(remote)
	if _, err := remote.CommitObject(head); err != nil {
		t.Fatalf("the remote does not read after the push: %v", err)
	}

	// A writer abandoned halfway leaves no pack a reader lists.
	third := bare()
	repo, err := r.open()
	if err != nil {
		t.Fatal(err)
	}
	h, err := r.head(repo)
	if err != nil {
		t.Fatal(err)
	}
	dst, err := openLocal(third)
	if err != nil {
		t.Fatal(err)
	}
	pw, err := dst.Storer.(*wholePacks).PackfileWriter()
	if err != nil {
		t.Fatal(err)
	}
	whole, err := os.ReadFile(filepath.Join(first, "objects", "pack", strings.TrimSuffix(idx, ".idx")+".pack"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pw.Write(whole[:len(whole)/2]); err != nil {
		t.Fatal(err)
	}
	for _, n := range packs(third) {
		if strings.HasPrefix(n, "pack-") {
			t.Fatalf("a pack is listed before its writer closed: %v", packs(third))
		}
	}
	if _, err := dst.CommitObject(h.Hash); err == nil {
		t.Fatal("the commit reads from a pack that was never closed")
	}
	if s, err := r.Sync(ctx, st, third); err != nil || !s.Pushed {
		t.Fatalf("push after an abandoned writer = %+v, %v", s, err)
	}
}

// An index an older build's killed writer left empty or cut short is rebuilt from its pack
// when the repository opens, so the remote reads again and the next sync pushes.
func TestDamagedPackIndexIsRebuilt(t *testing.T) {
	ctx := context.Background()
	st, r := openHome(t, t.TempDir(), true)
	write(t, st, memory.ActorUser, newMem("tea", "Drinks green tea."))
	dir := filepath.Join(t.TempDir(), "remote.git")
	if _, err := git.PlainInit(dir, true); err != nil {
		t.Fatal(err)
	}
	if s, err := r.Sync(ctx, st, dir); err != nil || !s.Pushed {
		t.Fatalf("first push = %+v, %v", s, err)
	}
	idxs, _ := filepath.Glob(filepath.Join(dir, "objects", "pack", "pack-*.idx"))
	if len(idxs) != 1 {
		t.Fatalf("indexes %v", idxs)
	}
	whole, err := os.ReadFile(idxs[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, cut := range []int{0, len(whole) / 2, len(whole) - 1} {
		if err := os.Chmod(idxs[0], 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(idxs[0], whole[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		if plain, err := git.PlainOpen(dir); err == nil {
			if _, err := plain.CommitObject(branchOf(plain)); err == nil {
				t.Fatalf("cut at %d: the damaged remote still reads: the test proves nothing", cut)
			}
		}
		remote, err := openLocal(dir)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := remote.CommitObject(branchOf(remote)); err != nil {
			t.Fatalf("cut at %d: the remote does not read after the repair: %v", cut, err)
		}
		if got, _ := os.ReadFile(idxs[0]); string(got) != string(whole) {
			t.Fatalf("cut at %d: the rebuilt index differs from the one written", cut)
		}
	}
	write(t, st, memory.ActorUser, newMem("coffee", "No coffee after noon."))
	if s, err := r.Sync(ctx, st, ""); err != nil || !s.Pushed {
		t.Fatalf("push after the repairs = %+v, %v", s, err)
	}
}
