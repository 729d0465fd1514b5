package wire

import (
	"context"
	"fmt"
	"os"
	"testing"

	"engram/backend/api"
	"engram/backend/i18n"
	"engram/backend/settings"
)

// openOneShot opens services as a CLI verb does (Passive, no Background).
func openOneShot(t *testing.T, home string) *Services {
	t.Helper()
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := Open(context.Background(), Options{Home: home, Lang: "en", Catalog: cat, Passive: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	return svc
}

// Vectors were computed by long-running processes only: after CLI writes (or a reindex) with
// nothing running, `engram search` ranked without vectors for those memories while the app
// ranked with them. A one-shot search now embeds what the local embedder is missing first,
// and finds by vector what shares no word with the query; with a model behind an endpoint it
// leaves the documents to the app (no network call per batch from a CLI verb).
func TestOneShotSearchEmbedsWhatIsMissing(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	writer := openOneShot(t, home)
	user := writer.API(ctx, api.ActorUser)
	const n = 6
	writeNotes(t, user, n)
	model := writer.Embeddings.Embedder().Model()
	if done, total, err := writer.Store.VectorCounts(ctx, model); err != nil || done != 0 || total != n {
		t.Fatalf("before any search: %d of %d embedded (%v)", done, total, err)
	}
	writer.Close()

	cli := openOneShot(t, home)
	res, err := cli.API(ctx, api.ActorUser).Memory.Search(api.SearchParams{Query: "teas"})
	if err != nil {
		t.Fatal(err)
	}
	if done, total, err := cli.Store.VectorCounts(ctx, model); err != nil || done != n || total != n {
		t.Fatalf("after a one-shot search: %d of %d embedded (%v)", done, total, err)
	}
	if !hasVia(res, "note-0", "vector") {
		t.Fatalf("the search did not use the vectors it computed: %+v", res.Hits)
	}

	// A model behind an endpoint: the one-shot search embeds its query only.
	srv := newEmbeddingsServer(t)
	if _, err := cli.API(ctx, api.ActorUser).Settings.Update(settings.Patch{Embeddings: &settings.EmbeddingsPatch{Provider: sp("openai"),
		BaseURL: sp(srv.URL + "/v1"), Model: sp("fake-embed")}}); err != nil {
		t.Fatal(err)
	}
	cli.Close()
	remote := openOneShot(t, home)
	if _, err := remote.API(ctx, api.ActorUser).Memory.Search(api.SearchParams{Query: "green tea"}); err != nil {
		t.Fatal(err)
	}
	srv.mu.Lock()
	docs := srv.docs
	srv.mu.Unlock()
	if docs != 0 {
		t.Fatalf("a one-shot search sent %d documents to the endpoint", docs)
	}
}

// writeNotes writes n user notes note-0 … note-(n-1): note-0 about green tea, the rest about a
// garden shed, so a search for tea has one answer.
func writeNotes(t *testing.T, user *api.API, n int) {
	t.Helper()
	for i := range n {
		body := fmt.Sprintf("Note %d about the garden shed and its tools", i)
		if i == 0 {
			body = "Drinks green tea every morning before work"
		}
		if _, err := user.Memory.Write(api.WriteParams{Scope: api.ScopeGlobal, Type: api.TypeUser,
			Slug: fmt.Sprintf("note-%d", i), Title: fmt.Sprintf("Note %d", i), Body: body}); err != nil {
			t.Fatal(err)
		}
	}
}
