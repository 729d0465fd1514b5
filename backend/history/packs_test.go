package history

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
	// Cut short at three places, then whole but with one byte flipped inside (a bad sector):
	// its tail still names the pack, but its own checksum fails and go-git refuses it.
	flipped := append([]byte(nil), whole...)
	flipped[len(flipped)/2] ^= 0x40
	for cut, damaged := range map[int][]byte{0: whole[:0], len(whole) / 2: whole[:len(whole)/2],
		len(whole) - 1: whole[:len(whole)-1], -1: flipped} {
		if err := os.Chmod(idxs[0], 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(idxs[0], damaged, 0o644); err != nil {
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

// A pack whose header declares more objects than its size can hold is refused with an error:
// go-git's index writer made room for all of them at once, and four billion crashed the
// process (out of memory is fatal) every time the repository opened.
func TestPackDeclaringTooManyObjectsIsRefused(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "pack-"+strings.Repeat("ab", 20)+".pack")
	head := []byte("PACK\x00\x00\x00\x02\xff\xff\xff\xff")
	if err := os.WriteFile(name, append(head, make([]byte, 20)...), 0o444); err != nil {
		t.Fatal(err)
	}
	if _, err := repairPackIndexes(dir); err == nil || !strings.Contains(err.Error(), "declares 4294967295 objects") {
		t.Fatalf("repair of a pack declaring 2^32-1 objects in 32 bytes: %v", err)
	}
}

// Temporary packs and indexes a killed process left are removed once an hour old; a fresh
// one (another machine may be writing it into a shared folder) is kept.
func TestStaleTemporaryPacksAreRemoved(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-2 * time.Hour)
	files := map[string]bool{packTempPrefix + "1": false, idxTempPrefix + "2": false, packTempPrefix + "3": true}
	for name, fresh := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("PACK"), 0o644); err != nil {
			t.Fatal(err)
		}
		if !fresh {
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := repairPackIndexes(dir); err != nil {
		t.Fatal(err)
	}
	for name, fresh := range files {
		_, err := os.Stat(filepath.Join(dir, name))
		if fresh != (err == nil) {
			t.Errorf("%s (fresh %v): %v", name, fresh, err)
		}
	}
}
