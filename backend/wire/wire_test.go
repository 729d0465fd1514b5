package wire

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"testing"

	"engram/backend/api"
	"engram/backend/memory"
)

// TestOpenWiresOneRecallForEveryAPI: the services come up on a fresh home, an api of each
// actor searches through the one recall wire built (a write is found at once), the
// background work starts, and Close ends it and releases the home for the next process.
func TestOpenWiresOneRecallForEveryAPI(t *testing.T) {
	home := t.TempDir()
	ctx := context.Background()
	for _, passive := range []bool{false, true} {
		svc, err := Open(ctx, Options{Home: home, Lang: "en", Passive: passive})
		if err != nil {
			t.Fatal(err)
		}
		if svc.Recall == nil || svc.Indexer() == nil || svc.Organizer == nil || svc.Events == nil {
			t.Fatalf("services missing: %+v", svc)
		}
		if !passive {
			svc.Background()
		}
		user, br := svc.API(ctx, api.ActorUser), svc.API(ctx, api.ActorBridge)
		if user.Actor() != api.ActorUser || br.Actor() != api.ActorBridge {
			t.Fatalf("actors %s %s", user.Actor(), br.Actor())
		}
		if !passive {
			if _, err := user.Memory.Write(api.WriteParams{Scope: api.ScopeGlobal, Type: api.TypeUser, Slug: "likes-tea",
				Title: "Likes tea", Body: "Drinks green tea every morning"}); err != nil {
				t.Fatal(err)
			}
		}
		for _, a := range []*api.API{user, br} {
			res, err := a.Memory.Search(api.SearchParams{Query: "green tea"})
			if err != nil || len(res.Hits) != 1 || res.Hits[0].Memory.Slug != "likes-tea" {
				t.Fatalf("passive=%v %s search: %v %+v", passive, a.Actor(), err, res)
			}
		}
		if err := svc.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCloseSavesTheVectorSnapshot: a long-running process follows the vector log without
// loading again; when it closes many changes ahead of the snapshot on disk it saves one at the
// log's head, so the next process (a CLI call) replays nothing.
func TestCloseSavesTheVectorSnapshot(t *testing.T) {
	home := t.TempDir()
	ctx := context.Background()
	svc, err := Open(ctx, Options{Home: home, Lang: "en"})
	if err != nil {
		t.Fatal(err)
	}
	user := svc.API(ctx, api.ActorUser)
	seed := func(scope, agent string, from, to int) {
		t.Helper()
		var items []memory.Item
		for i := from; i < to; i++ {
			title, body := fmt.Sprintf("Harbour note %d", i), fmt.Sprintf("The lighthouse keeper logged tide %d.", i)
			items = append(items, memory.Item{Op: memory.OpWrite, Scope: memory.Scope(scope), Agent: agent, Type: memory.TypeReference,
				Slug: fmt.Sprintf("harbour-%s-%d", scope, i), Title: &title, Body: &body})
		}
		if res, err := svc.Store.ApplyBatch(ctx, memory.Batch{Actor: memory.ActorImport, Items: items}); err != nil || res.Failed > 0 {
			t.Fatalf("seed: %v %+v", err, res)
		}
		if err := svc.Indexer().Run(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := user.Memory.Search(api.SearchParams{Query: "lighthouse tide"}); err != nil {
			t.Fatal(err)
		}
	}
	seed("global", "", 0, 10) // the first search loads every vector and saves the snapshot
	path := svc.Store.VectorSnapshotPath()
	head := func() int64 {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil || len(b) < 24 {
			t.Fatalf("snapshot: %v", err)
		}
		return int64(binary.LittleEndian.Uint64(b[16:]))
	}
	first := head()
	seed("global", "", 10, 310)
	seed("agent", "harbourmaster", 0, 300)
	if head() != first {
		t.Fatal("the running process saved while it followed the log")
	}
	if err := svc.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := memory.Open(ctx, home, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	newest, _, err := st.VectorLogHead(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := head(); got != newest || got == first {
		t.Fatalf("after Close the snapshot is at log row %d, want the head %d (it was at %d)", got, newest, first)
	}
}
