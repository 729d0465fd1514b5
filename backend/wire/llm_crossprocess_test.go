package wire

import (
	"testing"

	"engram/backend/api"
	"engram/backend/llm"
	"engram/backend/llm/llmtest"
	"engram/backend/settings"
)

// TestModelSetFromAnotherProcessIsUsed: the desktop app (or `engram serve`) built its model
// client when it started and again only on a change made through itself. A model set up from
// the CLI meanwhile (`engram llm set`, `engram llm key set`, another process on the same
// home) was never used by it: its extraction planned offline and its organizer ran without the
// model until it restarted; a new key was not sent, a model turned off kept being called. The
// running process now sees the settings and the key as stored.
func TestModelSetFromAnotherProcessIsUsed(t *testing.T) {
	home := t.TempDir()
	app, _ := openWithCatalog(t, home)
	app.Background()
	if _, err := app.LLM.Current(); llm.CodeOf(err) != llm.CodeNotConfigured {
		t.Fatalf("a fresh home has no model: %v", err)
	}
	cli, _ := openWithCatalog(t, home)
	person := cli.API(cli.ctx, api.ActorUser)
	srv := llmtest.NewOpenAI(t)
	configureModel(t, person, srv, false)
	if _, err := person.LLM.SetKey(api.SetKeyParams{Key: "sk-set-from-the-cli-0001"}); err != nil {
		t.Fatal(err)
	}

	srv.Push(llmtest.Call("SubmitMemoryPlan", `{"status":"noop"}`))
	run := extract(t, app.API(app.ctx, api.ActorTool), map[string]any{"session_id": "s1", "agent": "claude-code",
		"messages": []map[string]any{{"role": "user", "content": "I always run the tests with pytest -q before pushing."}}})
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Auth() != "Bearer sk-set-from-the-cli-0001" {
		t.Fatalf("the app did not ask the model set from the CLI (%d requests; run %v)", len(reqs), run)
	}

	// A new key from the CLI is the one the app sends next.
	if _, err := person.LLM.SetKey(api.SetKeyParams{Key: "sk-set-from-the-cli-0002"}); err != nil {
		t.Fatal(err)
	}
	c, err := app.LLM.Current()
	if err != nil {
		t.Fatal(err)
	}
	srv.Push(llmtest.Text("ok"))
	if _, err := c.Complete(app.ctx, llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}}); err != nil {
		t.Fatal(err)
	}
	if got := srv.Requests()[1].Auth(); got != "Bearer sk-set-from-the-cli-0002" {
		t.Fatalf("the app sent the old key: %q", got)
	}

	// The model turned off from the CLI is no longer called by the app.
	off := ""
	if _, err := person.Settings.Update(settings.Patch{LLM: &settings.LLMPatch{Provider: &off}}); err != nil {
		t.Fatal(err)
	}
	if _, err := app.LLM.Current(); llm.CodeOf(err) != llm.CodeNotConfigured {
		t.Fatalf("the app still has a model after it was turned off elsewhere: %v", err)
	}
}
