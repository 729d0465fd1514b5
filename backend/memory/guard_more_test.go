package memory

import (
	"strings"
	"testing"
)

// Each shape added after the table's first measure is held to exactly, not only through the
// table's detection rate: the disguises and wrappings of a key are refused under its kind,
// and the ordinary sentences that looked like one pass. (Keys are split in the source so no
// scanner takes this file for one.)
func TestGuardShapesHeldExactly(t *testing.T) {
	tok := "Q3vJx8LmN2pR7tY4wZ9aB6cD1eF5gH0iK3nM" // 36 letters and digits
	hex := "9f86d081884c7d659a2feaa0c55ad015"
	b64 := "MIIEowIBAAKCAQEAq9Zr8kLmN3xPw2Vb7TcY4hJd0sFgA1eRuK6oLnM5Zt8yWq3E"
	cases := []struct{ text, kind string }{
		{"tls.key: LS0tLS1CRUdJTi" + "BSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NBUUVB" + tok, "private_key"},
		{"-----begin openssh priv" + "ate key-----\n" + b64, "private_key"},
		{"----BEGIN RSA PRIV" + "ATE KEY----\n" + b64, "private_key"},
		{"----- BEGIN EC PRIV" + "ATE KEY -----\n" + b64, "private_key"},
		{"gh" + "p_" + tok[:18] + "\ufe0f" + tok[18:], "github_token"},
		{"gh" + "s_" + tok[:18] + "\u0301" + tok[18:], "github_token"},
		{"gl" + "pat-" + tok[:10] + "\u2800" + tok[10:20], "gitlab_token"},
		{"token wrapped: gh" + "p_" + tok[:18] + "\n" + tok[18:], "github_token"},
		{"> deploy with gl" + "pat-" + tok[:12] + "\n> " + tok[12:24] + " then push", "gitlab_token"},
		{"mysql -uroot -p" + tok[:12] + " app_db", "password_assignment"},
		{"sshpass -p '" + tok[:14] + "' ssh deploy@10.0.0.5", "password_assignment"},
		{"https://acct.blob.core.windows.net/c?sv=2022-11-02&sp=rl&s" + "ig=" + tok + "abcdefgh%3D", "azure_sas_token"},
		{"MAILGUN=ke" + "y-" + hex, "mailgun_key"},
		{"mailchimp " + hex + "-u" + "s14", "mailchimp_key"},
		{"DATABASE_URL=postgres://postgres:" + tok[:14] + "@localhost:5432/app", "url_password"},
		{"postgres://admin:admin@db.prod.internal.net/app", "url_password"},
		// Ordinary text.
		{"the cache entry is key-" + hex + " in redis", ""},
		{"mysql -u root -p app_db (it asks for the password)", ""},
		{"ssh -p 2222 deploy@10.0.0.5", ""},
		{"---- BEGIN notes ----\nthe private key lives in the vault", ""},
		{"The token is JWT-encoded and the session cookie is OAuth2-based.", ""},
		{"the token is X-Auth-Token, set by the gateway", ""},
		{"The API key is OPENAI_API_KEY in the shell profile.", ""},
		// A password shaped like a variable's name is still a password a person typed.
		{"my password is MY_SECRET_2024", "password_assignment"},
		{"密码是 ABC_DEF_2024", "password_assignment"},
		{"the password is vault://prod/db", ""},
		{"The secret is vault://prod/db (read it with vault kv get)", ""},
		{"AK" + "IAXXXXXXXXXXXXXXXX is the placeholder in the docs", ""},
		{"DATABASE_URL=postgres://postgres:postgres@localhost:5432/app", ""},
		{"amqp://guest:guest@rabbitmq:5672/", ""},
		{"see the docs for sk-learn-estimators\nand pipelines, and hf_hub_download\nfor models", ""},
		{"Tie\u0302\u0301ng Vie\u0323\u0302t co\u0301 da\u0302\u0301u", ""},
		{"ship it \u2764\ufe0f and tag v1.2.3 at 3f786850e387550fdab836ed7e6dc881de23001b", ""},
	}
	for _, c := range cases {
		if got := secretKind(c.text); got != c.kind {
			t.Errorf("%q: kind %q, want %q", c.text, got, c.kind)
		}
		if c.kind != "" {
			if r := RedactSecrets("before " + c.text + " after"); secretKind(r) != "" || !strings.Contains(r, redactedMark) {
				t.Errorf("%q: redacted to %q", c.text, r)
			}
		}
	}
}
