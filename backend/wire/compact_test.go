package wire

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"engram/backend/api"
	"engram/backend/extraction"
	"engram/backend/llm/llmtest"
	"engram/backend/memory"
)

// longTurn is a session of n messages, alternating the person and the agent.
func longTurn(id string, n int) extraction.Request {
	req := extraction.Request{SessionID: id, Agent: "claude-code"}
	for i := 1; i <= n; i++ {
		role := "user"
		if i%2 == 0 {
			role = "assistant"
		}
		req.Messages = append(req.Messages, extraction.Message{Role: role, ID: fmt.Sprintf("m%d", i),
			Content: fmt.Sprintf("message %d about the billing migration", i)})
	}
	return req
}

// readSession waits until the session's summary is set and returns it.
func waitSummary(t *testing.T, a *api.API, id string) api.SessionDetail {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		res, err := a.Call("sessions.read", json.RawMessage(`{"id":"`+id+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		d := res.(api.SessionDetail)
		if d.Session.Summary != "" || time.Now().After(deadline) {
			return d
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestLongSessionsAreSummarisedInTheBackground: in a long-running process with a model
// configured, a session past 80 messages is recorded at once (the recording caller, an agent
// waiting on extraction.request or its Stop hook, never waits for the model — the model here
// does not answer until the record has returned) and then folded by the model's summary, the
// last 20 messages kept verbatim, one call with purpose session_summary. A model that fails
// leaves the extractive summary instead: the bound holds either way.
func TestLongSessionsAreSummarisedInTheBackground(t *testing.T) {
	t.Run("model", func(t *testing.T) {
		svc, _ := openWithCatalog(t, t.TempDir())
		svc.Background()
		user := svc.API(svc.ctx, api.ActorUser)
		srv := llmtest.NewOpenAI(t)
		configureModel(t, user, srv, false)
		release := make(chan struct{})
		srv.Push(llmtest.Text("- The person is moving billing to Postgres 16.").WithUsage(700, 40).WithGate(release))
		rec, err := user.RecordTurns(longTurn("long", 85))
		if err != nil {
			t.Fatal(err)
		}
		if rec.Compacted || !rec.NeedsCompaction || rec.Session.TurnsKept != 85 {
			t.Fatalf("the record waited for the summary: %+v", rec.Session)
		}
		close(release)
		d := waitSummary(t, user, "long")
		if d.Session.Summary != "- The person is moving billing to Postgres 16." || d.Session.TurnsKept != memory.SessionKeep ||
			d.Session.Summarized != 85-memory.SessionKeep || len(d.Turns) != memory.SessionKeep || d.Turns[0].Seq != 66 {
			t.Fatalf("after the background fold: %+v (%d turns)", d.Session, len(d.Turns))
		}
		reqs := srv.Requests()
		if len(reqs) != 1 || !strings.Contains(string(reqs[0].Raw), "#1 user: message 1 about") ||
			strings.Contains(string(reqs[0].Raw), "#66 ") || !strings.Contains(string(reqs[0].Raw), "running summary of one conversation") {
			t.Fatalf("summary request: %d requests, %.400s", len(reqs), reqs[0].Raw)
		}
		usage, err := svc.Store.SummarizeLLMUsage(svc.ctx, time.Now().Add(-time.Hour), time.Now().Add(time.Hour), time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		if len(usage.ByPurpose) != 1 || usage.ByPurpose[0].Key != "session_summary" || usage.ByPurpose[0].InputTokens != 700 {
			t.Fatalf("usage %+v", usage.ByPurpose)
		}
	})
	t.Run("model fails", func(t *testing.T) {
		svc, _ := openWithCatalog(t, t.TempDir())
		svc.Background()
		user := svc.API(svc.ctx, api.ActorUser)
		srv := llmtest.NewOpenAI(t)
		configureModel(t, user, srv, false)
		srv.Push(llmtest.Status(400, ""))
		if _, err := user.RecordTurns(longTurn("long", 85)); err != nil {
			t.Fatal(err)
		}
		d := waitSummary(t, user, "long")
		if !strings.HasPrefix(d.Session.Summary, "- #1 user: message 1") || d.Session.TurnsKept != memory.SessionKeep {
			t.Fatalf("fallback summary: %+v", d.Session)
		}
	})
	t.Run("one-shot process", func(t *testing.T) {
		// No Background: the CLI compacts in place, extractively without a model.
		svc, _ := openWithCatalog(t, t.TempDir())
		user := svc.API(svc.ctx, api.ActorUser)
		rec, err := user.RecordTurns(longTurn("long", 85))
		if err != nil || !rec.Compacted || rec.Session.TurnsKept != memory.SessionKeep {
			t.Fatalf("in place: %+v %v", rec, err)
		}
	})
}
