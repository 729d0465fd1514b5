package memory

import (
	"strings"
	"testing"
)

// A key pasted into a conversation is not kept in the index's copy of the turn.
func TestRecordedTurnsHoldNoSecret(t *testing.T) {
	e := newEnv(t)
	pem := "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----"
	in := "use this key for the deploy box:\n" + pem + "\nand the AWS id " + fakeAWSKeyID
	if _, err := e.s.RecordSession(e.ctx, SessionRecord{Agent: "claude-code", Session: "s-secret",
		Turns: []TurnInput{{Role: "user", Content: in}}}, nil); err != nil {
		t.Fatal(err)
	}
	ts, err := e.s.SessionTurns(e.ctx, "claude-code", "s-secret")
	if err != nil || len(ts) != 1 {
		t.Fatalf("turns %v %v", ts, err)
	}
	got := ts[0].Content
	if strings.Contains(got, "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ") || strings.Contains(got, fakeAWSKeyID) || secretKind(got) != "" {
		t.Fatalf("the stored turn keeps a secret: %q", got)
	}
	if !strings.HasPrefix(got, "use this key for the deploy box:") {
		t.Fatalf("the words around the key were lost: %q", got)
	}
}
