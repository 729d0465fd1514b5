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

// A key block whose header was retyped (lower case, four dashes) or that was base64-wrapped
// over several lines is redacted whole, body lines included, and the words after it kept.
func TestRedactSecretsTakesTheWholeDisguisedKey(t *testing.T) {
	body1, body2 := "q9Zr8kLmN3xPw2Vb7TcY4hJd0sFgA1eRuK6oLnM5", "Zt8yWq3ErTy6UiOp0AsDfGh2JkLzXcVbNm4Qw9E1"
	wrapped := "LS0tLS1CRUdJTi" + "BSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NBUUVB"
	for name, key := range map[string]string{
		"lower case":  "-----begin rsa private key-----\n" + body1 + "\n" + body2 + "\n-----end rsa private key-----",
		"four dashes": "----BEGIN RSA PRIVATE KEY----\n" + body1 + "\n" + body2 + "\n----END RSA PRIVATE KEY----",
		"base64":      wrapped + body1 + "\n" + body2 + "\n" + body1 + "==",
	} {
		got := RedactSecrets("the key:\n" + key + "\nkeep it safe")
		if strings.Contains(got, body1) || strings.Contains(got, body2) || !strings.HasPrefix(got, "the key:\n") ||
			!strings.HasSuffix(got, "\nkeep it safe") {
			t.Errorf("%s: %q", name, got)
		}
	}
}
