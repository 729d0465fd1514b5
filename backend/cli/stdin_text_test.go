package cli

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// brokenStdin gives a few bytes, then fails.
type brokenStdin struct{ sent bool }

func (b *brokenStdin) Read(p []byte) (int, error) {
	if !b.sent {
		b.sent = true
		return copy(p, "partial "), nil
	}
	return 0, errors.New("stdin went away")
}

// Every verb that reads "-" from stdin reads it the one way (stdinText, each with its bound):
// a read that fails is said in words naming "-" and its reason, and nothing is written. write
// and update answered the bare Go error ("stdin went away").
func TestStdinReadFailureIsSaidTheSameEverywhere(t *testing.T) {
	h := newHome(t)
	h.ok("write", "--type", "user", "--slug", "tea", "--title", "Tea", "--body", "Likes tea.")
	for _, args := range [][]string{
		{"write", "--type", "user", "--slug", "coffee", "--title", "Coffee", "--body", "-"},
		{"update", "tea", "--body", "-"},
		{"kv", "set", "--agent", "codex", "k", "-"},
		{"daily", "append", "-"},
		{"extract", "-"},
	} {
		var out, errb bytes.Buffer
		env := h.env(&out, &errb)
		env.Stdin = &brokenStdin{}
		code := Run(context.Background(), args, env)
		if code != 1 || !strings.Contains(errb.String(), "Could not read -") || !strings.Contains(errb.String(), "stdin went away") {
			t.Errorf("engram %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, out.String(), errb.String())
		}
	}
	if out := h.ok("show", "tea"); strings.Contains(out, "partial") {
		t.Fatalf("update wrote a half-read body:\n%s", out)
	}
	if code, _, _ := h.run("", "show", "coffee"); code == 0 {
		t.Fatal("write wrote a half-read body")
	}
}
