package history

import (
	"context"
	"strings"
	"testing"

	"engram/backend/memory"
)

// A delete on one machine against a change on the other is a conflict: the change wins
// (whichever machine merges), and the merge result, the merge commit's subject and, on the
// machine whose delete is undone by a fast-forward, the replaced list name it. It used to be
// undone without a word: "1 file changed; 0 conflicts", replaced empty.

// sharedStart is two machines sharing kv key k (agent claude) and memory tea through a bare
// remote, both in step.
func sharedStart(t *testing.T) (a *memory.Store, ra *Repo, b *memory.Store, rb *Repo) {
	t.Helper()
	ctx := context.Background()
	_, bare, a, ra, b, rb := twoMachines(t)
	kvSet(t, a, "claude", "k", `"v1"`)
	kvSet(t, a, "claude", "other", `"x"`)
	write(t, a, memory.ActorUser, newMem("tea", "Likes green tea."))
	if _, err := ra.Sync(ctx, a, bare); err != nil {
		t.Fatal(err)
	}
	if _, err := rb.Sync(ctx, b, bare); err != nil {
		t.Fatal(err)
	}
	return a, ra, b, rb
}

func kvDel(t *testing.T, st *memory.Store, agent, key string) {
	t.Helper()
	if err := st.KVDelete(context.Background(), memory.KVChange{Agent: agent, Key: key, Actor: memory.ActorUser}); err != nil {
		t.Fatal(err)
	}
}

func kvValue(t *testing.T, st *memory.Store, agent, key string) string {
	t.Helper()
	v, err := st.KVGet(context.Background(), agent, key)
	if err != nil {
		return ""
	}
	return string(v)
}

func editTea(t *testing.T, st *memory.Store, body string) {
	t.Helper()
	write(t, st, memory.ActorUser, memory.Item{Op: memory.OpUpdate, Slug: "tea", Scope: memory.ScopeGlobal, Mode: "replace", Body: str(body)})
}

func deleteTea(t *testing.T, st *memory.Store) {
	t.Helper()
	write(t, st, memory.ActorUser, memory.Item{Op: memory.OpDelete, Slug: "tea", Scope: memory.ScopeGlobal})
}

func teaBody(t *testing.T, st *memory.Store) string {
	t.Helper()
	m, err := st.GetBySlug(context.Background(), memory.ScopeGlobal, "", "", "tea")
	if err != nil {
		return ""
	}
	return m.Body
}

func subjectOf(t *testing.T, st *memory.Store) string {
	t.Helper()
	return strings.SplitN(mergeCommit(t, st.Root()).Message, "\n", 2)[0]
}

// QA's case: A changes k and pushes, B deletes k and merges. B's delete is undone — k is A's
// v2 — and B's result names it: deleted here, v2 back. A's next sync changes nothing of A's.
func TestSyncKVDeleteHereAgainstChangeThere(t *testing.T) {
	ctx := context.Background()
	a, ra, b, rb := sharedStart(t)
	kvSet(t, a, "claude", "k", `"v2"`)
	sa, err := ra.Sync(ctx, a, "")
	if err != nil || !sa.Pushed {
		t.Fatalf("A's sync = %+v, %v", sa, err)
	}
	kvDel(t, b, "claude", "k")
	res, err := rb.Sync(ctx, b, "")
	if err != nil || !res.Merged {
		t.Fatalf("B's sync = %+v, %v", res, err)
	}
	if got := kvValue(t, b, "claude", "k"); got != `"v2"` {
		t.Fatalf("B's k = %q, want A's change \"v2\"", got)
	}
	if len(res.Conflicts) != 1 {
		t.Fatalf("B's conflicts %+v, want k deleted here", res.Conflicts)
	}
	c := res.Conflicts[0]
	if c.Deleted != DeletedHere || c.Key != "k" || c.Agent != "claude" || c.Path != "agents/claude/kv.json" ||
		c.Value != `"v2"` || c.Other != "" || c.Theirs != sa.Head {
		t.Fatalf("B's conflict %+v, want k deleted here, \"v2\" back, from %s", c, sa.Head)
	}
	if res.KVFiles != 1 || res.Changed != 1 || len(res.Replaced) != 0 {
		t.Fatalf("B's sync = %+v", res)
	}
	if s, want := subjectOf(t, b), "sync: merge "+res.Remote+" (1 changed: 1 kv file; 1 conflict)"; s != want {
		t.Fatalf("merge subject %q, want %q", s, want)
	}
	// A fast-forwards to B's merge: its own change stands, nothing of A's was replaced.
	fa, err := ra.Sync(ctx, a, "")
	if err != nil || !fa.FastForward || len(fa.Replaced) != 0 || fa.KVFiles != 0 {
		t.Fatalf("A's second sync = %+v, %v", fa, err)
	}
	if got := kvValue(t, a, "claude", "k"); got != `"v2"` {
		t.Fatalf("A's k = %q", got)
	}
}

// The reverse: A deletes k and pushes, B changes k and merges. B's change stays (named:
// deleted there, kept); A's next sync fast-forwards and brings k back, and says so in
// replaced: this machine deleted it, the other's v2 is here, A's delete is in A's commit.
func TestSyncKVDeleteThereAgainstChangeHere(t *testing.T) {
	ctx := context.Background()
	a, ra, b, rb := sharedStart(t)
	kvDel(t, a, "claude", "k")
	sa, err := ra.Sync(ctx, a, "")
	if err != nil || !sa.Pushed {
		t.Fatalf("A's sync = %+v, %v", sa, err)
	}
	kvSet(t, b, "claude", "k", `"v2"`)
	res, err := rb.Sync(ctx, b, "")
	if err != nil || !res.Merged {
		t.Fatalf("B's sync = %+v, %v", res, err)
	}
	if got := kvValue(t, b, "claude", "k"); got != `"v2"` {
		t.Fatalf("B's k = %q, want its change \"v2\"", got)
	}
	if len(res.Conflicts) != 1 {
		t.Fatalf("B's conflicts %+v, want k deleted there", res.Conflicts)
	}
	c := res.Conflicts[0]
	if c.Deleted != DeletedThere || c.Key != "k" || c.Agent != "claude" || c.Value != `"v2"` || c.Other != "" || c.Theirs != sa.Head {
		t.Fatalf("B's conflict %+v, want k deleted there, \"v2\" kept", c)
	}
	if res.Changed != 0 {
		t.Fatalf("B's sync changed nothing here, yet = %+v", res)
	}
	if s, want := subjectOf(t, b), "sync: merge "+res.Remote+" (0 changed; 1 conflict)"; s != want {
		t.Fatalf("merge subject %q, want %q", s, want)
	}
	fa, err := ra.Sync(ctx, a, "")
	if err != nil || !fa.FastForward || fa.KVFiles != 1 {
		t.Fatalf("A's second sync = %+v, %v", fa, err)
	}
	if got := kvValue(t, a, "claude", "k"); got != `"v2"` {
		t.Fatalf("A's k = %q, want B's change back", got)
	}
	if len(fa.Replaced) != 1 {
		t.Fatalf("A's replaced %+v, want k (deleted here) back", fa.Replaced)
	}
	r := fa.Replaced[0]
	if r.Deleted != DeletedHere || r.Key != "k" || r.Agent != "claude" || r.Value != `"v2"` || r.Other != "" || r.Theirs != sa.Head {
		t.Fatalf("A's replaced %+v, want k deleted here, \"v2\" back, the delete in %s", r, sa.Head)
	}
}

// A memory: A edits tea and pushes, B deletes it and merges. tea is back on B with A's
// edit, and B's result names it (deleted here); A's next sync replaces nothing.
func TestSyncMemoryDeleteHereAgainstEditThere(t *testing.T) {
	ctx := context.Background()
	a, ra, b, rb := sharedStart(t)
	editTea(t, a, "Likes oolong (A).")
	sa, err := ra.Sync(ctx, a, "")
	if err != nil || !sa.Pushed {
		t.Fatalf("A's sync = %+v, %v", sa, err)
	}
	deleteTea(t, b)
	res, err := rb.Sync(ctx, b, "")
	if err != nil || !res.Merged {
		t.Fatalf("B's sync = %+v, %v", res, err)
	}
	if got := teaBody(t, b); got != "Likes oolong (A)." {
		t.Fatalf("B's tea = %q, want A's edit back", got)
	}
	if len(res.Conflicts) != 1 {
		t.Fatalf("B's conflicts %+v, want tea deleted here", res.Conflicts)
	}
	c := res.Conflicts[0]
	if c.Deleted != DeletedHere || c.Slug != "tea" || c.Copy != "" || c.Key != "" || c.Theirs != sa.Head {
		t.Fatalf("B's conflict %+v, want tea deleted here", c)
	}
	if res.Memories != 1 || res.Changed != 1 {
		t.Fatalf("B's sync = %+v", res)
	}
	if s, want := subjectOf(t, b), "sync: merge "+res.Remote+" (1 changed: 1 memory; 1 conflict)"; s != want {
		t.Fatalf("merge subject %q, want %q", s, want)
	}
	fa, err := ra.Sync(ctx, a, "")
	if err != nil || !fa.FastForward || len(fa.Replaced) != 0 || fa.Memories != 0 {
		t.Fatalf("A's second sync = %+v, %v", fa, err)
	}
	if got := teaBody(t, a); got != "Likes oolong (A)." {
		t.Fatalf("A's tea = %q", got)
	}
}

// The reverse: A deletes tea and pushes, B edits it and merges. B's edit stays (deleted
// there); A's fast-forward brings tea back with B's edit and names it in replaced.
func TestSyncMemoryDeleteThereAgainstEditHere(t *testing.T) {
	ctx := context.Background()
	a, ra, b, rb := sharedStart(t)
	deleteTea(t, a)
	sa, err := ra.Sync(ctx, a, "")
	if err != nil || !sa.Pushed {
		t.Fatalf("A's sync = %+v, %v", sa, err)
	}
	editTea(t, b, "Likes jasmine (B).")
	res, err := rb.Sync(ctx, b, "")
	if err != nil || !res.Merged {
		t.Fatalf("B's sync = %+v, %v", res, err)
	}
	if got := teaBody(t, b); got != "Likes jasmine (B)." {
		t.Fatalf("B's tea = %q, want its edit", got)
	}
	if len(res.Conflicts) != 1 {
		t.Fatalf("B's conflicts %+v, want tea deleted there", res.Conflicts)
	}
	if c := res.Conflicts[0]; c.Deleted != DeletedThere || c.Slug != "tea" || c.Copy != "" || c.Theirs != sa.Head {
		t.Fatalf("B's conflict %+v, want tea deleted there", c)
	}
	if res.Changed != 0 {
		t.Fatalf("B's sync changed nothing here, yet = %+v", res)
	}
	if s, want := subjectOf(t, b), "sync: merge "+res.Remote+" (0 changed; 1 conflict)"; s != want {
		t.Fatalf("merge subject %q, want %q", s, want)
	}
	fa, err := ra.Sync(ctx, a, "")
	if err != nil || !fa.FastForward || fa.Memories != 1 || fa.Changed != 1 {
		t.Fatalf("A's second sync = %+v, %v", fa, err)
	}
	if got := teaBody(t, a); got != "Likes jasmine (B)." {
		t.Fatalf("A's tea = %q, want B's edit back", got)
	}
	if len(fa.Replaced) != 1 {
		t.Fatalf("A's replaced %+v, want tea (deleted here) back", fa.Replaced)
	}
	if r := fa.Replaced[0]; r.Deleted != DeletedHere || r.Slug != "tea" || r.Copy != "" || r.Key != "" || r.Theirs != sa.Head {
		t.Fatalf("A's replaced %+v, want tea deleted here, the delete in %s", r, sa.Head)
	}
}

// Key by key: a key one side deleted and the other changed, a key only one side deleted, a
// kv.json one side deleted whole.
func TestMergeKVDeleteAgainstChange(t *testing.T) {
	const rel = "agents/a/kv.json"
	base := []byte("{\n  \"gone\": 1,\n  \"k\": \"base\",\n  \"mine\": \"base\"\n}\n")
	ours := []byte("{\n  \"k\": \"base\",\n  \"mine\": \"ours\"\n}\n") // deleted gone, changed mine
	theirs := []byte("{\n  \"gone\": 2,\n  \"k\": \"base\"\n}\n")      // changed gone, deleted mine
	merged, kept, deleted := mergeKV(rel, base, ours, theirs)
	got, err := memory.ParseKV(rel, merged)
	if err != nil || len(kept) != 0 || len(got) != 3 || string(got["gone"]) != "2" || string(got["mine"]) != `"ours"` {
		t.Fatalf("merged %s, kept %q, %v", merged, kept, err)
	}
	if len(deleted) != 2 || deleted["gone"] != DeletedHere || deleted["mine"] != DeletedThere {
		t.Fatalf("deleted %v", deleted)
	}
	// Ours deleted the file: only what theirs changed comes back, named.
	merged, _, deleted = mergeKV(rel, base, emptyKV, theirs)
	got, err = memory.ParseKV(rel, merged)
	if err != nil || len(got) != 1 || string(got["gone"]) != "2" || len(deleted) != 1 || deleted["gone"] != DeletedHere {
		t.Fatalf("merged %s, deleted %v, %v", merged, deleted, err)
	}
}
