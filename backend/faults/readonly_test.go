package faults

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"engram/backend/api"
	"engram/backend/memory"
)

// makeReadOnly takes writing away from the home: a read-only bind mount over it when this
// machine allows mounts (root writes through mode bits; a file open before stays writable, as
// when a disk turns read-only under a process), else the mode bits.
func makeReadOnly(t *testing.T, mounts bool, dir string, ro bool) {
	t.Helper()
	if !mounts {
		if ro {
			chmodTree(dir, 0o555, 0o444)
		} else {
			chmodTree(dir, 0o700, 0o600)
		}
		return
	}
	if !ro {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Fatalf("umount %s: %v %s", dir, err, out)
		}
		return
	}
	for _, args := range [][]string{{"--bind", dir, dir}, {"-o", "remount,bind,ro", dir}} {
		if out, err := exec.Command("mount", args...).CombinedOutput(); err != nil {
			t.Fatalf("mount %v: %v %s", args, err, out)
		}
	}
}

// canMount reports whether bind mounts work here (root, not a locked-down container).
func canMount(t *testing.T) bool {
	if os.Geteuid() != 0 {
		return false
	}
	dir := t.TempDir()
	if err := exec.Command("mount", "--bind", dir, dir).Run(); err != nil {
		return false
	}
	_ = exec.Command("umount", dir).Run()
	return true
}

func chmodTree(root string, dirMode, fileMode os.FileMode) {
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.IsDir() {
			os.Chmod(p, dirMode)
		} else if err == nil {
			os.Chmod(p, fileMode)
		}
		return nil
	})
}

func snapshot(root string) map[string]string {
	out := map[string]string{}
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && !strings.HasPrefix(info.Name(), indexPrefix) {
			data, _ := os.ReadFile(p)
			out[p] = string(data)
		}
		return nil
	})
	return out
}

const indexPrefix = "index.sqlite3"

// TestReadOnlyHome: the home turns read-only under a running process, then a new process
// opens it read-only. Writes are refused with the coded, translated home_read_only (never an
// internal error), reads keep answering, nothing already written changes or goes, and once
// writable again the index agrees with the files.
func TestReadOnlyHome(t *testing.T) {
	mounts := canMount(t)
	if !mounts && os.Geteuid() == 0 {
		t.Skip("root writes through mode bits and no read-only bind mount can be made here")
	}
	h := &home{dir: filepath.Join(t.TempDir(), "home"), l: &ledger{}, rng: rand.New(rand.NewPCG(3, 4))}
	svc, a := openServices(t, h.dir)
	for i := 0; i < 20; i++ {
		marker := "mk-ro-" + string(rune('a'+i))
		res, err := a.Memory.ApplyBatch(api.BatchParams{Items: []memory.Item{write("ro-"+string(rune('a'+i))+"-x", marker),
			{Op: memory.OpAppendDaily, Text: "day-" + marker}}})
		if e := apiErr(res, err); e != nil {
			t.Fatal(e)
		}
		h.l.acks = append(h.l.acks, ack{Kind: "mem", ID: res.Results[0].ID, Marker: marker}, ack{Kind: "day", Marker: "day-" + marker})
	}
	before := snapshot(h.root())
	makeReadOnly(t, mounts, h.dir, true)
	restored := false
	t.Cleanup(func() {
		if !restored {
			makeReadOnly(t, mounts, h.dir, false)
		}
	})

	refused := func(a *api.API, when string) {
		t.Helper()
		for _, items := range [][]memory.Item{
			{write("refused-one", "never lands")},
			{{Op: memory.OpAppendDaily, Text: "refused entry"}},
			{{Op: memory.OpUpdate, ID: h.l.acks[0].ID, Body: sp("refused edit"), Mode: "replace"}},
		} {
			res, err := a.Memory.ApplyBatch(api.BatchParams{Items: items})
			e := apiErr(res, err)
			if e == nil {
				t.Fatalf("%s: %s accepted on a read-only home", when, items[0].Op)
			}
			checkTranslated(t, e, memory.CodeHomeReadOnly)
		}
		if r, err := a.Memory.Read(api.RefParams{ID: h.l.acks[0].ID}); err != nil || !strings.Contains(r.Memory.Body, "mk-ro-a") {
			t.Fatalf("%s: read: %v", when, err)
		}
	}
	refused(a, "while running")
	if err := svc.Close(); err != nil {
		t.Logf("close on a read-only home: %v", err)
	}
	svc, a = openServices(t, h.dir)
	if !svc.Store.ReadOnly() {
		t.Fatal("a read-only home was not opened read-only")
	}
	refused(a, "opened read-only")
	if list, err := a.Memory.List(api.ListParams{}); err != nil || list.Total < 20 {
		t.Fatalf("list on a read-only home: %v %+v", err, list.Total)
	}
	svc.Close()
	after := snapshot(h.root())
	for p, data := range before {
		if after[p] != data {
			t.Errorf("%s changed while the home was read-only", p)
		}
	}
	if len(after) != len(before) {
		t.Errorf("%d files before, %d after", len(before), len(after))
	}
	makeReadOnly(t, mounts, h.dir, false)
	restored = true
	h.verifyIndex(t, false)
}
