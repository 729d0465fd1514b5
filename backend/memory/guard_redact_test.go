package memory

import (
	"path/filepath"
	"strings"
	"testing"
)

// Every secret of the guard's table is gone from the text RedactSecrets returns, with the
// words around it kept; clean texts come back unchanged.
func TestRedactSecretsOverTheTable(t *testing.T) {
	cases, err := loadSecretTable(filepath.Join("testdata", "secrets.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		text := "before " + c.text + " after"
		got := RedactSecrets(text)
		if !c.secret {
			if got != text {
				t.Errorf("line %d: a clean text changed: %q → %q", c.line, text, got)
			}
			continue
		}
		if k := secretKind(got); k != "" {
			t.Errorf("line %d: %s still found after redaction: %q", c.line, k, got)
		}
		if !strings.Contains(got, redactedMark) {
			t.Errorf("line %d: no mark where the secret was: %q", c.line, got)
		}
	}
}

func TestRedactSecretsKeepsTheConversation(t *testing.T) {
	key := "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1c2x\nq9Zr8kLmN3\n-----END RSA PRIVATE KEY-----"
	in := "here is the deploy key:\n" + key + "\nplease keep it safe, and my AWS id is " + fakeAWSKeyID + "."
	got := RedactSecrets(in)
	if strings.Contains(got, "MIIEpAIBAAKCAQEA1c2x") || strings.Contains(got, fakeAWSKeyID) {
		t.Fatalf("secrets left: %q", got)
	}
	for _, keep := range []string{"here is the deploy key:", "please keep it safe, and my AWS id is ", "."} {
		if !strings.Contains(got, keep) {
			t.Errorf("lost %q: %q", keep, got)
		}
	}
}
