package transcript

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"engram/backend/extraction/turn"
)

// A Codex rollout is read as a transcript: the session and folder from session_meta, the
// person's typed message (not the AGENTS.md instructions or environment Codex adds, nor the
// event_msg copies), the files a patch touched, the shell command and the answer.
func TestCodexRollout(t *testing.T) {
	p, err := ReadFile(filepath.Join("testdata", "codex-rollout.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if p.SessionID != "0199a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b" || p.Cwd != "/home/ada/src/kiln" {
		t.Fatalf("session %q cwd %q", p.SessionID, p.Cwd)
	}
	if p.Malformed != 0 || p.Partial || p.Duplicates != 0 {
		t.Fatalf("counts %+v", p)
	}
	var roles []string
	var muts []turn.Mutation
	for _, e := range p.Entries {
		roles = append(roles, e.Role)
		muts = append(muts, e.Mutations...)
		if e.Timestamp == "" || e.UUID == "" {
			t.Errorf("entry without timestamp or id: %+v", e)
		}
	}
	if want := []string{RoleUser, RoleAssistant, RoleAssistant, RoleAssistant}; !slices.Equal(roles, want) {
		t.Fatalf("roles %v, want %v (%+v)", roles, want, p.Entries)
	}
	if p.Entries[0].Text != "The kiln scheduler test is flaky again. I always run tests with -race, remember that." {
		t.Fatalf("person text %q", p.Entries[0].Text)
	}
	if last := p.Entries[3].Text; last != "The test slept instead of waiting for the ready channel; it now waits on it. Ran with -race: passes." {
		t.Fatalf("answer %q", last)
	}
	want := []turn.Mutation{{Tool: "shell", Kind: "command"}, {Tool: "apply_patch", Kind: "edit", Path: "scheduler/fire.go"},
		{Tool: "apply_patch", Kind: "write", Path: "scheduler/ready_test.go"}}
	if !slices.Equal(muts, want) {
		t.Fatalf("mutations %+v, want %+v", muts, want)
	}
	req, _ := Request(p.Entries, p.SessionID, "codex", p.Cwd)
	if !HasPerson(req) || len(req.WorkspaceMutations) != 3 {
		t.Fatalf("request %+v", req)
	}
}

// Rollouts of older Codex versions wrote the response items bare, one a line, and applied
// patches through the shell tool.
func TestCodexRolloutLegacy(t *testing.T) {
	p, err := ReadFile(filepath.Join("testdata", "codex-rollout-legacy.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Entries) != 3 || p.Entries[0].Role != RoleUser || p.Entries[0].Text != "rename the config loader to settings" ||
		p.Entries[2].Text != "Renamed." {
		t.Fatalf("entries %+v", p.Entries)
	}
	// The patch went through the shell tool: its file is read from it.
	if m := p.Entries[1].Mutations; len(m) != 1 || m[0] != (turn.Mutation{Tool: "apply_patch", Kind: "edit", Path: "settings.go"}) {
		t.Fatalf("mutations %+v", m)
	}
}

// A rollout still being written is read up to its last whole line, like a transcript, and the
// next read from End finds only what came after.
func TestCodexRolloutGrows(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "codex-rollout.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "rollout.jsonl")
	half := raw[:len(raw)/2]
	if err := os.WriteFile(path, half, 0o600); err != nil {
		t.Fatal(err)
	}
	first, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	rest, err := ReadFileFrom(path, first.End)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Entries)+len(rest.Entries) != 4 {
		t.Fatalf("entries %d + %d, want 4", len(first.Entries), len(rest.Entries))
	}
}
