package faults

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"engram/backend/api"
	"engram/backend/memory"
	"engram/backend/recall"
	"engram/backend/settings"
	"engram/backend/wire"
)

// mountTmpfs mounts a tmpfs of size at a new folder (unmounted at cleanup). ok is false when
// this machine does not allow it (not root, no mount permission in a container).
func mountTmpfs(t *testing.T, size string) (dir string, ok bool) {
	t.Helper()
	if os.Geteuid() != 0 {
		return "", false
	}
	dir = t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size+",mode=0700", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Logf("mount -t tmpfs refused (%v: %s)", err, strings.TrimSpace(string(out)))
		return "", false
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", dir).Run() })
	return dir, true
}

func remount(t *testing.T, dir, opts string) {
	t.Helper()
	if out, err := exec.Command("mount", "-o", "remount,"+opts, dir).CombinedOutput(); err != nil {
		t.Fatalf("remount %s %s: %v %s", dir, opts, err, out)
	}
}

// openServices opens a home as the engram binary does, in this process.
func openServices(t *testing.T, dir string) (*wire.Services, *api.API) {
	t.Helper()
	cat, err := loadCatalog()
	if err != nil {
		t.Fatal(err)
	}
	svc, err := wire.Open(context.Background(), wire.Options{Home: dir, Lang: "en", Catalog: cat, Version: "faults", Logger: quiet, Passive: true})
	if err != nil {
		t.Fatalf("open %s: %v", dir, err)
	}
	return svc, svc.API(context.Background(), memory.ActorUser)
}

// apiErr is a coded failure as a client sees it: a failed item, or the call's error.
func apiErr(res api.BatchResult, err error) *api.Error {
	var ae *api.Error
	if errors.As(err, &ae) {
		return ae
	}
	for _, r := range res.Results {
		if !r.OK {
			return &api.Error{Code: r.Code, I18nKey: r.I18nKey, Args: r.Args, Message: r.Message}
		}
	}
	return nil
}

// checkTranslated checks that a coded error reads well in English and Chinese.
func checkTranslated(t *testing.T, e *api.Error, code string) {
	t.Helper()
	if e.Code != code || e.I18nKey != "error."+code || e.Message == "" || strings.Contains(e.Message, "<no value>") ||
		strings.Contains(e.Message, "error."+code) {
		t.Fatalf("want a translated %s, got %+v", code, e)
	}
	cat, err := loadCatalog()
	if err != nil {
		t.Fatal(err)
	}
	zh := cat.T("zh-CN", e.I18nKey, e.Args)
	if zh == "" || zh == e.Message || strings.Contains(zh, "<no value>") {
		t.Fatalf("%s in Chinese: %q (English %q)", code, zh, e.Message)
	}
}

// TestDiskFull writes until the disk holding the home is full: the failure is the coded,
// translated disk_full, every write acknowledged before it is still there, reads keep
// working, and once space is freed the index agrees with the files and writing resumes.
// A small tmpfs when this machine may mount one (CI runs as root).
func TestDiskFull(t *testing.T) {
	dir, ok := mountTmpfs(t, "3m")
	if !ok {
		t.Skip("no tmpfs can be mounted here (not root, or no mount rights); TestDiskFullInjected covers the full disk by a write fault")
	}
	h := &home{dir: filepath.Join(dir, "home"), l: &ledger{}, rng: rand.New(rand.NewPCG(1, 2))}
	svc, a := openServices(t, h.dir)
	var failure *api.Error
	for i := 0; i < 2000 && failure == nil; i++ {
		slug := fmt.Sprintf("fill-%04d", i)
		marker := "mk-" + slug
		body := marker + " " + noise(h.rng, 7000)
		items := []memory.Item{write(slug, body)}
		if i%10 == 0 {
			items = append(items, memory.Item{Op: memory.OpAppendDaily, Text: "day-" + marker})
		}
		res, err := a.Memory.ApplyBatch(api.BatchParams{Items: items})
		for k, r := range res.Results {
			if !r.OK {
				continue
			}
			if k == 0 {
				h.l.acks = append(h.l.acks, ack{Kind: "mem", ID: r.ID, Marker: marker})
			} else {
				h.l.acks = append(h.l.acks, ack{Kind: "day", Marker: "day-" + marker})
			}
		}
		failure = apiErr(res, err)
	}
	if failure == nil {
		t.Fatal("2000 writes of 7 KB fit on a 3 MB disk")
	}
	t.Logf("disk full after %d acknowledged writes: %s", h.l.count("mem"), failure.Message)
	checkTranslated(t, failure, memory.CodeDiskFull)
	// Reads still answer on a full disk.
	first := h.l.acks[0]
	if r, err := a.Memory.Read(api.RefParams{ID: first.ID}); err != nil || !strings.Contains(r.Memory.Body, first.Marker) {
		t.Fatalf("read on a full disk: %v", err)
	}
	// The journal is refused the same way.
	res, err := a.Memory.ApplyBatch(api.BatchParams{Items: []memory.Item{{Op: memory.OpAppendDaily, Text: strings.Repeat("z", 4000)}}})
	if e := apiErr(res, err); e == nil || e.Code != memory.CodeDiskFull {
		t.Fatalf("journal append on a full disk: %+v", e)
	}
	h.verifyFiles(t, false)
	// Space comes back while the process runs: it writes again, the journal included (a
	// failed batch's files are reconciled first instead of read as hand edits).
	remount(t, dir, "size=64m")
	res, err = a.Memory.ApplyBatch(api.BatchParams{Items: []memory.Item{write("room-again", "mk-room-again"),
		{Op: memory.OpAppendDaily, Text: "day-mk-room-again"}}})
	if e := apiErr(res, err); e != nil {
		t.Fatalf("write once space is back: %+v", e)
	}
	h.l.acks = append(h.l.acks, ack{Kind: "mem", ID: res.Results[0].ID, Marker: "mk-room-again"}, ack{Kind: "day", Marker: "day-mk-room-again"})
	if err := svc.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	h.verifyIndex(t, false)
}

// noise is text that does not compress away.
func noise(rng *rand.Rand, n int) string {
	const letters = "abcdefghijklmnopqrstuvwxyz "
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[rng.IntN(len(letters))]
	}
	return string(b)
}

// TestDiskFullInjected is the full disk on any machine (no mount needed): the store's write
// fault hook fails every memory file write with ENOSPC, as a full disk does. The refusal is
// the coded, translated disk_full, what was written before stays, and writing resumes once
// there is room again.
func TestDiskFullInjected(t *testing.T) {
	ctx := context.Background()
	h := newHome(t)
	var full atomic.Bool
	st, err := memory.Open(ctx, h.dir, memory.Options{Logger: quiet, WriteFault: func(string) error {
		if full.Load() {
			return syscall.ENOSPC
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	cat, err := loadCatalog()
	if err != nil {
		t.Fatal(err)
	}
	set := settings.New(st, "en")
	a := api.New(ctx, api.Deps{Store: st, Catalog: cat, Settings: set, Events: api.NewHub(st, set),
		Recall: recall.New(st, recall.Options{}), Version: "faults"}, memory.ActorUser)
	one := func(items ...memory.Item) (api.BatchResult, *api.Error) {
		res, err := a.Memory.ApplyBatch(api.BatchParams{Items: items})
		return res, apiErr(res, err)
	}
	for i := 0; i < 10; i++ {
		slug := fmt.Sprintf("before-full-%02d", i)
		res, e := one(write(slug, "mk-"+slug), memory.Item{Op: memory.OpAppendDaily, Text: "day-mk-" + slug})
		if e != nil {
			t.Fatal(e)
		}
		h.l.acks = append(h.l.acks, ack{Kind: "mem", ID: res.Results[0].ID, Marker: "mk-" + slug}, ack{Kind: "day", Marker: "day-mk-" + slug})
	}
	full.Store(true)
	for _, it := range []memory.Item{write("refused", "mk-refused"), {Op: memory.OpAppendDaily, Text: "refused entry"},
		{Op: memory.OpUpdate, ID: h.l.acks[0].ID, Body: sp("refused edit"), Mode: "replace"}} {
		_, e := one(it)
		if e == nil {
			t.Fatalf("%s accepted on a full disk", it.Op)
		}
		checkTranslated(t, e, memory.CodeDiskFull)
	}
	h.verifyFiles(t, false)
	full.Store(false)
	res, e := one(write("room-again", "mk-room-again"))
	if e != nil {
		t.Fatalf("write once there is room: %+v", e)
	}
	h.l.acks = append(h.l.acks, ack{Kind: "mem", ID: res.Results[0].ID, Marker: "mk-room-again"})
	st.Close()
	h.verifyIndex(t, false)
	if _, err := os.Stat(filepath.Join(h.root(), "global", "user", "refused.md")); err == nil {
		t.Fatal("the refused memory landed")
	}
}
