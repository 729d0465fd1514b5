package memory

import (
	"context"
	"strings"
	"testing"
)

// Literals are split so no scanner takes this file for one holding credentials.
var (
	qaSlackURL = "https://hooks.slack" + ".com/services/T0123ABCD/B0456EFGH/abcdefghijklmnopqrstuvwx"
	qaAnthKey  = "sk-ant-" + "api03-abcdefghijklmnopqrstuvwxyz012345"
)

// One verdict: what the refusal calls a secret in a memory is what redaction takes out of a
// stored conversation, and the reverse. Before, a match holding a run (abcdefgh) anywhere was
// skipped by both, so a Slack webhook ending in one was kept in the session's messages while
// the turn's first 80 characters, quoted as source_quote, were refused; and an Anthropic key
// with a run was written as a memory.
func TestGuardOneVerdict(t *testing.T) {
	for _, c := range []struct {
		name, text string
		secret     bool
	}{
		{"slack webhook with a run", "Remember the Slack webhook " + qaSlackURL + " is for alerts", true},
		{"provider key with a run", "key is " + qaAnthKey, true},
		{"github token with a run", "push with gh" + "p_abcdefghijklmnopqrstuvwxyz0123456789", true},
		{"password holding a run", "db password: abcdefgh12", true},
		{"documented AWS example", "aws_access_key_id = AK" + "IAIOSFODNN7EXAMPLE", false},
		{"password that is one run", "my password is 12345678", false},
		{"password that is one character", "password: 000000000", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			refused := secretKind(c.text) != ""
			redacted := RedactSecrets(c.text)
			if refused != c.secret || (redacted != c.text) != c.secret {
				t.Fatalf("refused %v, redacted %q; want secret=%v", refused, redacted, c.secret)
			}
			if c.secret && secretKind(redacted) != "" {
				t.Fatalf("a secret is left after redaction: %q", redacted)
			}
			body := e.do(wr("verdict-body", "Verdict", c.text))
			quote := wr("verdict-quote", "Verdict quote", "A note.")
			quote.SourceQuote = sp(cut(c.text, 80))
			quoted := e.do(quote)
			if body.OK == c.secret || quoted.OK == c.secret {
				t.Fatalf("body ok=%v (%s), quote ok=%v (%s); want refused=%v", body.OK, body.Code, quoted.OK, quoted.Code, c.secret)
			}
			if _, err := e.s.RecordSession(e.ctx, SessionRecord{Agent: "claude-code", Session: "s7x",
				Turns: []TurnInput{{Role: "user", Content: c.text}}}, nil); err != nil {
				t.Fatal(err)
			}
			ts, err := e.s.SessionTurns(e.ctx, "claude-code", "s7x")
			if err != nil || len(ts) != 1 || ts[0].Content != redacted {
				t.Fatalf("stored %+v (%v), want %q", ts, err, redacted)
			}
		})
	}
}

// A key across MaxTurnContent is redacted whole, not cut to a stub the guard no longer knows;
// a model's summary is redacted like a message.
func TestStoredSessionTextIsRedacted(t *testing.T) {
	e := newEnv(t)
	long := strings.Repeat("a", MaxTurnContent-10) + " " + qaAnthKey
	if _, err := e.s.RecordSession(e.ctx, SessionRecord{Agent: "a", Session: "cut",
		Turns: []TurnInput{{Role: "user", Content: long}}}, nil); err != nil {
		t.Fatal(err)
	}
	ts, err := e.s.SessionTurns(e.ctx, "a", "cut")
	if err != nil || len(ts) != 1 {
		t.Fatalf("turns %d (%v)", len(ts), err)
	}
	if c := ts[0].Content; strings.Contains(c, "sk-ant") || !strings.Contains(c, "[redacted") {
		t.Fatalf("turn ends %q", c[len(c)-40:])
	}
	leaky := func(context.Context, SummaryInput) (string, error) {
		return "they set the alert hook " + qaSlackURL, nil
	}
	if _, err := e.s.RecordSession(e.ctx, SessionRecord{Agent: "a", Session: "sum", Turns: turns(1, SessionCompactAt+5)}, leaky); err != nil {
		t.Fatal(err)
	}
	s, err := e.s.FindSession(e.ctx, "a", "sum")
	if err != nil || strings.Contains(s.Summary, "hooks.slack") || !strings.Contains(s.Summary, redactedMark) {
		t.Fatalf("summary %q (%v)", s.Summary, err)
	}
}
