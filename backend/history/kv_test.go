package history

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	git "github.com/go-git/go-git/v5"

	"engram/backend/memory"
)

func kvSet(t *testing.T, st *memory.Store, agent, key, value string) {
	t.Helper()
	if _, err := st.KVSet(context.Background(), memory.KVChange{Agent: agent, Key: key, Value: json.RawMessage(value), Actor: memory.ActorTool}); err != nil {
		t.Fatal(err)
	}
}

// fileAtHead is a file's content in the branch's last commit ("" when absent).
func fileAtHead(t *testing.T, root, rel string) string {
	t.Helper()
	repo, err := git.PlainOpen(root)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := repo.Reference("refs/heads/main", true)
	if err != nil {
		t.Fatal(err)
	}
	c, err := repo.CommitObject(ref.Hash())
	if err != nil {
		t.Fatal(err)
	}
	f, err := c.File(rel)
	if err != nil {
		return ""
	}
	s, _ := f.Contents()
	return s
}

// An agent's kv.json is versioned: each set and delete is one commit naming the operation and
// the file (never the key or value), and a hand edit is committed by the watcher.
func TestKVFilesAreVersioned(t *testing.T) {
	st, _ := openHome(t, t.TempDir(), true)
	root := st.Root()
	kvSet(t, st, "claude", "project:version", `"1.4.2"`)
	if c := commits(t, root); c[0] != "tool: kv_set agents/claude/kv.json" {
		t.Fatalf("commits %q", c)
	}
	if got := fileAtHead(t, root, "agents/claude/kv.json"); !strings.Contains(got, `"project:version": "1.4.2"`) {
		t.Fatalf("kv.json at HEAD = %q", got)
	}
	if _, err := st.KVSet(context.Background(), memory.KVChange{Agent: "claude", Key: "project:version", Value: json.RawMessage(`"1.4.2"`), Actor: memory.ActorTool}); err != nil {
		t.Fatal(err)
	}
	if c := commits(t, root); len(c) != 2 {
		t.Fatalf("an unchanged set made a commit: %q", c)
	}
	if err := st.KVDelete(context.Background(), memory.KVChange{Agent: "claude", Key: "project:version", Actor: memory.ActorUser}); err != nil {
		t.Fatal(err)
	}
	if c := commits(t, root); c[0] != "user: kv_delete agents/claude/kv.json" {
		t.Fatalf("commits %q", c)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready, done := make(chan struct{}), make(chan struct{})
	go func() { _ = st.Watch(ctx, ready); close(done) }()
	<-ready
	if err := os.WriteFile(filepath.Join(root, "agents", "claude", "kv.json"), []byte("{\n  \"editor\": \"vim\"\n}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		var c []string
		_ = st.Locked(func() error { c = commits(t, root); return nil })
		if c[0] == "hand: edit agents/claude/kv.json" {
			break
		}
		if i > 2000 {
			t.Fatalf("hand edit of kv.json not committed: %q", c)
		}
		waitABit()
	}
	cancel()
	<-done
}

// A home whose history was turned on by an older Engram (its .gitignore kept kv.json out)
// gets the new rules and its kv.json files committed at the next start; a .gitignore the
// person wrote is left alone.
func TestOlderIgnoreFileIsUpgraded(t *testing.T) {
	home := t.TempDir()
	st, _ := openHome(t, home, true)
	kvSet(t, st, "claude", "editor", `"vim"`)
	root := st.Root()
	old := strings.Replace(ignoreText, "!/agents/*/kv.json\n", "", 1)
	if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	st.Close()
	st2, err := memory.Open(context.Background(), home, memory.Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	Attach(st2, New(st2.Root(), quiet))
	if got := fileAtHead(t, root, ".gitignore"); got != ignoreText {
		t.Fatalf(".gitignore at HEAD = %q", got)
	}
	if got := fileAtHead(t, root, "agents/claude/kv.json"); !strings.Contains(got, `"editor": "vim"`) {
		t.Fatalf("kv.json at HEAD = %q", got)
	}
	mine := "# mine\n*.md\n"
	if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte(mine), 0o600); err != nil {
		t.Fatal(err)
	}
	Attach(st2, New(st2.Root(), quiet))
	if data, _ := os.ReadFile(filepath.Join(root, ".gitignore")); string(data) != mine {
		t.Fatalf("the person's .gitignore was rewritten: %q", data)
	}
}

// Two machines change one agent's facts: keys changed on one side only merge, a key both
// changed keeps this machine's value and is reported with the other side's commit.
func TestKVMergesKeyByKey(t *testing.T) {
	ctx := context.Background()
	bare := filepath.Join(t.TempDir(), "remote.git")
	if _, err := git.PlainInit(bare, true); err != nil {
		t.Fatal(err)
	}
	a, ra := openHome(t, t.TempDir(), true)
	b, rb := openHome(t, t.TempDir(), true)
	kvSet(t, a, "claude", "shared", `"base"`)
	kvSet(t, a, "claude", "both", `"base"`)
	kvSet(t, a, "claude", "gone", `"base"`)
	if _, err := ra.Sync(ctx, a, bare); err != nil {
		t.Fatal(err)
	}
	if _, err := rb.Sync(ctx, b, bare); err != nil {
		t.Fatal(err)
	}
	kvSet(t, a, "claude", "only-a", `"a"`)
	kvSet(t, a, "claude", "both", `"a"`)
	kvSet(t, b, "claude", "only-b", `{"b":1}`)
	kvSet(t, b, "claude", "both", `"b"`)
	if err := b.KVDelete(ctx, memory.KVChange{Agent: "claude", Key: "gone", Actor: memory.ActorUser}); err != nil {
		t.Fatal(err)
	}
	if _, err := ra.Sync(ctx, a, ""); err != nil {
		t.Fatal(err)
	}
	res, err := rb.Sync(ctx, b, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Conflicts) != 1 || res.Conflicts[0].Key != "both" || res.Conflicts[0].Path != "agents/claude/kv.json" || res.Conflicts[0].Theirs == "" {
		t.Fatalf("conflicts %+v", res.Conflicts)
	}
	page, err := b.KVList(ctx, "claude", "", "", 100)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range page.Entries {
		got[e.Key] = string(e.Value)
	}
	want := map[string]string{"shared": `"base"`, "both": `"b"`, "only-a": `"a"`, "only-b": `{"b":1}`}
	if len(got) != len(want) {
		t.Fatalf("B's keys %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("B's keys %v, want %v", got, want)
		}
	}
	// A fast-forwards to the merge and agrees.
	if _, err := ra.Sync(ctx, a, ""); err != nil {
		t.Fatal(err)
	}
	if page2, _ := a.KVList(ctx, "claude", "", "", 100); len(page2.Entries) != 4 {
		t.Fatalf("A's keys %+v", page2.Entries)
	}
}
