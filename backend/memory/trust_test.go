package memory

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeID(t *testing.T, wd, id string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(wd, ProjectIDFile), []byte(id+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A repository's id file is content anyone can publish: naming the id another folder on this
// machine uses does not open that project's memories to the folder until the person trusts it,
// and the person's word (trust or untrust) holds across reopening and reindexing.
func TestIDFileNeedsTrustToJoinAnotherFoldersProject(t *testing.T) {
	e := newEnv(t)
	base := t.TempDir()
	own := mkdir(t, base, "work", "app")
	writeID(t, own, "acme-app")
	e.ok(projWrite(own, "deploy-keys", "Deploy keys rotate on the first Monday"))
	idKey := resolveVia(t, e, own).Key
	if p := resolveVia(t, e, own); p.Kind != ProjectByID || p.UntrustedID != "" {
		t.Fatalf("the first folder to use the id: %+v", p)
	}

	hostile := mkdir(t, base, "downloads", "cool-tool")
	writeID(t, hostile, "acme-app")
	gitClone(t, hostile, "https://example.com/stranger/cool-tool")
	apart := func(why string) {
		t.Helper()
		p := resolveVia(t, e, hostile)
		if p.Key == idKey || p.Kind != ProjectByRemote || p.UntrustedID != "acme-app" ||
			!strings.Contains(p.Problem, "--trust") {
			t.Fatalf("%s: the other folder resolves to %+v (id key %s)", why, p, idKey)
		}
		if got := e.slugsIn(Filter{Workdir: hostile, NoDaily: true}); contains(got, "deploy-keys") {
			t.Fatalf("%s: the other folder lists %v", why, got)
		}
		if hasSlug(e.search("deploy keys monday", Filter{Workdir: hostile}), "deploy-keys") {
			t.Fatalf("%s: the other folder finds the memory", why)
		}
	}
	apart("untrusted")
	// What it writes stays its own.
	r := e.ok(projWrite(hostile, "tool-notes", "Notes of the other folder"))
	if strings.Contains(r.Path, idKey) {
		t.Fatalf("the untrusted folder wrote into the id's project: %s", r.Path)
	}
	e.reopen()
	apart("after reopening")
	if _, err := e.s.Reindex(e.ctx); err != nil {
		t.Fatal(err)
	}
	e.s.Projects().Forget()
	apart("after a reindex")

	// The person trusts it: it joins; what it wrote stays with its remote's project.
	p, err := e.s.TrustProject(hostile, true)
	if err != nil || p.Key != idKey || p.UntrustedID != "" {
		t.Fatalf("trusted: %+v %v", p, err)
	}
	got := e.slugsIn(Filter{Workdir: hostile, NoDaily: true})
	if strings.Join(got, ",") != "deploy-keys" {
		t.Fatalf("trusted folder lists %v", got)
	}
	if m, err := e.s.Get(e.ctx, r.ID); err != nil || m.Path != r.Path {
		t.Fatalf("the memory written before the trust: %+v %v", m, err)
	}
	// And untrusts it again.
	if p, err := e.s.TrustProject(hostile, false); err != nil || p.Key == idKey {
		t.Fatalf("untrusted: %+v %v", p, err)
	}
	apart("untrusted again")

	// Untrusting the first folder holds too: it is not taken back as the first claim.
	if p, err := e.s.TrustProject(own, false); err != nil || p.Key == idKey || p.UntrustedID != "acme-app" {
		t.Fatalf("the first folder untrusted: %+v %v", p, err)
	}
	e.reopen()
	if p := resolveVia(t, e, own); p.Key == idKey {
		t.Fatalf("the untrusted first folder came back: %+v", p)
	}
	if p, err := e.s.TrustProject(own, true); err != nil || p.Key != idKey {
		t.Fatalf("the first folder trusted again: %+v %v", p, err)
	}

	// Only a folder with an id file has anything to trust.
	plain := mkdir(t, base, "plain")
	_, err = e.s.TrustProject(plain, true)
	var ce *Error
	if !errors.As(err, &ce) || ce.Code != CodeNoProjectID {
		t.Fatalf("trusting a folder without an id file: %v", err)
	}
}

// A home from before trust records: the folder this machine's index recorded for the id keeps
// it without asking; another folder naming it does not. An id nobody holds memories under is
// the first claimer's, and only the first's.
func TestIDFileTrustOnUpgradeAndFirstClaim(t *testing.T) {
	e := newEnv(t)
	base := t.TempDir()
	own := mkdir(t, base, "app")
	writeID(t, own, "team-app")
	e.ok(projWrite(own, "style-guide", "Tabs, not spaces"))
	key := resolveVia(t, e, own).Key
	if err := os.RemoveAll(filepath.Join(e.s.root, trustDir)); err != nil {
		t.Fatal(err)
	}
	e.reopen()
	if p := resolveVia(t, e, own); p.Key != key {
		t.Fatalf("the recorded folder lost its id on upgrade: %+v", p)
	}
	other := mkdir(t, base, "other")
	writeID(t, other, "team-app")
	if p := resolveVia(t, e, other); p.Key == key {
		t.Fatalf("another folder took the recorded folder's id: %+v", p)
	}

	// A fresh id: the first folder takes it with nothing under it; a second one then asks.
	first := mkdir(t, base, "first")
	writeID(t, first, "fresh-id")
	second := mkdir(t, base, "second")
	writeID(t, second, "fresh-id")
	p1 := resolveVia(t, e, first)
	if p1.Kind != ProjectByID {
		t.Fatalf("the first claim of a fresh id: %+v", p1)
	}
	if p2 := resolveVia(t, e, second); p2.Key == p1.Key || p2.UntrustedID != "fresh-id" {
		t.Fatalf("the second claim of a fresh id: %+v", p2)
	}
}

// resolveVia resolves through the store's cache afresh, as every caller placing a workdir does.
func resolveVia(t *testing.T, e *env, wd string) Project {
	t.Helper()
	e.s.Projects().Forget()
	p, err := e.s.Projects().Resolve(wd)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
