package extraction

import (
	"strings"

	"engram/backend/memory"
)

// Quotes are cut from the person's words (to 80 characters, or around a fact), and a cut can
// leave part of a secret that the secret guard, which knows each secret by its whole shape, no
// longer recognises. The trigger: the profile kept `source_quote: Slack webhook
// https://hooks.slack.com/services/T0123ABCD/B0456EFGH/abcdefghijklm` — a webhook's secret cut
// short — and `recent_topic: Slack` from the sentence whose facts were refused as secrets. A
// cut secret is still a secret: a quote is checked against the whole text it was cut from.

// touchesSecret reports whether the quote q, found in the person's text t, holds any part of a
// secret the guard finds in t: the guard's redaction of t no longer holds q verbatim, or blanking
// q in t leaves the guard fewer secrets to redact.
func touchesSecret(t, q string) bool {
	i := strings.Index(t, q)
	if i < 0 || q == "" {
		return false
	}
	r := memory.RedactSecrets(t)
	if r == t {
		return false
	}
	if !strings.Contains(r, q) {
		return true
	}
	blank := t[:i] + strings.Repeat(" ", len(q)) + t[i+len(q):]
	return strings.Count(memory.RedactSecrets(blank), redactedMark) != strings.Count(r, redactedMark)
}

// lineHasSecret reports whether a line of t that the quote q (found in t) spans carries a
// secret: a profile signal read there (a tool named beside a webhook or a key) is not the
// person's profile but the secret's context, and is not recorded.
func lineHasSecret(t, q string) bool {
	i := strings.Index(t, q)
	if i < 0 || q == "" {
		return false
	}
	start := strings.LastIndexByte(t[:i], '\n') + 1
	end := len(t)
	if j := strings.IndexByte(t[i+len(q):], '\n'); j >= 0 {
		end = i + len(q) + j
	}
	line := t[start:end]
	return memory.RedactSecrets(line) != line
}
