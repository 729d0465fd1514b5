package wire

import (
	"context"
	"testing"

	"engram/backend/api"
	"engram/backend/extraction"
)

// The hook service is built on the home, and what the lead sets on Services for sessions
// (the disposer the extraction controller offers) reaches every api built afterwards.
func TestSessionsAndHookAreWired(t *testing.T) {
	ctx := context.Background()
	svc, err := Open(ctx, Options{Home: t.TempDir(), Lang: "en", Passive: true})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	if svc.Hook == nil || svc.Hook.Home() != svc.Store.Home() {
		t.Fatalf("hook service %+v", svc.Hook)
	}
	var disposed []string
	svc.OnSessionDeleted = func(agent, id string) { disposed = append(disposed, agent+"/"+id) }
	a := svc.API(ctx, api.ActorUser)
	if _, err := a.RecordTurns(extraction.Request{SessionID: "s", Agent: "claude-code",
		Messages: []extraction.Message{{Role: "user", Content: "hello"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Sessions.Delete(api.SessionRef{ID: "s"}); err != nil {
		t.Fatal(err)
	}
	if len(disposed) != 1 || disposed[0] != "claude-code/s" {
		t.Fatalf("disposed %v", disposed)
	}
}
