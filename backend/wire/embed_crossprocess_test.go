package wire

import (
	"bytes"
	"context"
	"testing"

	"engram/backend/api"
	"engram/backend/settings"
)

// An embeddings model and key set from the CLI while the desktop app (or `engram serve`) ran
// were never used by it: the app heard only its own settings changes, so it kept the local
// embedder (or sent no key, or the old one) until it restarted. It now looks at what is stored
// (ReloadIfChanged, every few seconds while it runs) and switches.
func TestEmbeddingsSetFromAnotherProcessAreUsed(t *testing.T) {
	home := t.TempDir()
	var logs bytes.Buffer
	app, closeApp := openRunning(t, home, &logs)
	defer closeApp()
	if changed, err := app.Embeddings.ReloadIfChanged(context.Background()); changed || err != nil {
		t.Fatalf("nothing changed, yet reloaded: %v %v", changed, err)
	}
	cli, closeCLI := openWithCatalog(t, home)
	defer closeCLI()
	person := cli.API(cli.ctx, api.ActorUser)
	srv := newEmbeddingsServer(t)
	srv.release()
	if _, err := person.Settings.Update(settings.Patch{Embeddings: &settings.EmbeddingsPatch{Provider: sp("openai"),
		BaseURL: sp(srv.URL + "/v1"), Model: sp("fake-embed")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := person.Embeddings.SetKey(api.SetEmbeddingsKeyParams{Key: embedKey}); err != nil {
		t.Fatal(err)
	}

	if changed, err := app.Embeddings.ReloadIfChanged(context.Background()); !changed || err != nil {
		t.Fatalf("the app did not take the CLI's embeddings: %v %v", changed, err)
	}
	user := app.API(app.ctx, api.ActorUser)
	st, err := user.Recall.EmbedStatus(api.Empty{})
	if err != nil || st.Provider != "openai" || st.Model != "openai:fake-embed" || !st.KeySet {
		t.Fatalf("the app's embeddings after the CLI's change: %+v %v", st, err)
	}
	if _, err := user.Memory.Search(api.SearchParams{Query: "green tea"}); err != nil {
		t.Fatal(err)
	}
	srv.mu.Lock()
	auths := append([]string(nil), srv.auths...)
	srv.mu.Unlock()
	if len(auths) == 0 || auths[len(auths)-1] != "Bearer "+embedKey {
		t.Fatalf("the app did not call the endpoint with the key set from the CLI: %v", auths)
	}
	if changed, _ := app.Embeddings.ReloadIfChanged(context.Background()); changed {
		t.Error("reloaded again with nothing changed")
	}
}
