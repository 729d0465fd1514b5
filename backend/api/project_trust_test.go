package api

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"engram/backend/memory"
)

// Only a person may give a folder trust: a model-facing caller (MCP's tool actor, the
// extraction model, the organizer, an import) is refused memory.project with or without Trust,
// and nothing it can call writes a trust record or joins an untrusted folder to the project.
func TestProjectTrustIsAPersonsWord(t *testing.T) {
	user := newAPI(t, memory.ActorUser)
	st := user.deps.Store
	base := t.TempDir()
	mk := func(name string) string {
		dir := filepath.Join(base, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, memory.ProjectIDFile), []byte("acme-app\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		real, _ := filepath.EvalSymlinks(dir)
		return real
	}
	own, hostile := mk("own"), mk("hostile")
	first, err := user.Memory.Project(ProjectParams{Workdir: own})
	if err != nil || first.Kind != memory.ProjectByID {
		t.Fatalf("the first folder: %+v %v", first, err)
	}
	records := func() []string {
		entries, _ := os.ReadDir(filepath.Join(st.Root(), ".trusted-projects"))
		var out []string
		for _, e := range entries {
			out = append(out, e.Name())
		}
		return out
	}
	before := records()

	for _, actor := range []string{memory.ActorTool, memory.ActorExtractor, memory.ActorOrganizer, memory.ActorImport} {
		a := New(user.ctx, user.deps, actor)
		for _, trust := range []string{ProjectTrust, ProjectUntrust, ""} {
			for _, dir := range []string{hostile, own} {
				raw, _ := json.Marshal(ProjectParams{Workdir: dir, Trust: trust})
				_, err := a.Call("memory.project", raw)
				wantCode(t, err, CodeProjectPersonOnly)
				_, err = a.Invoke("memory.project", &ProjectParams{Workdir: dir, Trust: trust})
				wantCode(t, err, CodeProjectPersonOnly)
			}
		}
		// A write from the hostile folder stays its own, and trust is no field a write takes.
		res, err := a.Call("memory.write", json.RawMessage(`{"scope":"project","workdir":`+quoteJSON(hostile)+`,"type":"project",
			"slug":"note-`+actor+`","title":"A note","body":"Written by a model","confidence":"medium","source_quote":"a note"}`))
		if err != nil || !res.(ItemResult).OK || strings.Contains(res.(ItemResult).Path, first.Key) {
			t.Fatalf("%s: a write from the untrusted folder: %+v %v", actor, res, err)
		}
		_, err = a.Call("memory.write", json.RawMessage(`{"scope":"project","workdir":`+quoteJSON(hostile)+`,"trust":"trust",
			"type":"project","slug":"x","title":"x","body":"x"}`))
		wantCode(t, err, CodeInvalidParams)
	}
	if after := records(); !slices.Equal(before, after) {
		t.Fatalf("a model-facing caller changed the trust records: %v, then %v", before, after)
	}
	if p, err := user.Memory.Project(ProjectParams{Workdir: hostile}); err != nil || p.Key == first.Key || p.UntrustedID != "acme-app" {
		t.Fatalf("the hostile folder after the agents' calls: %+v %v", p, err)
	}
	// The person's word works through the same method.
	if p, err := user.Memory.Project(ProjectParams{Workdir: hostile, Trust: ProjectTrust}); err != nil || p.Key != first.Key {
		t.Fatalf("the person trusts the folder: %+v %v", p, err)
	}
}
