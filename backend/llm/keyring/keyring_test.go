package keyring_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"engram/backend/coded"
	"engram/backend/llm"
	"engram/backend/llm/keyring"
)

func TestSetGetDeletePerEndpoint(t *testing.T) {
	home := t.TempDir()
	r := keyring.Open(home)
	if k, err := r.Get(llm.ProviderOpenAI, ""); err != nil || k != "" {
		t.Fatalf("empty ring: %q %v", k, err)
	}
	if err := r.Set(llm.ProviderOpenAI, "", "  sk-openai-AAAA\n"); err != nil {
		t.Fatal(err)
	}
	if err := r.Set(llm.ProviderOpenAI, "https://API.deepseek.com/v1/", "sk-deepseek-BBBB"); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ provider, base, want string }{
		{llm.ProviderOpenAI, "", "sk-openai-AAAA"},
		{llm.ProviderOpenAI, "https://api.openai.com/v1/", "sk-openai-AAAA"},
		{llm.ProviderOpenAI, "https://api.deepseek.com/v1", "sk-deepseek-BBBB"},
		// The OpenAI key is never offered to another endpoint.
		{llm.ProviderOpenAI, "http://127.0.0.1:11434/v1", ""},
		{llm.ProviderAnthropic, "", ""},
	}
	for _, c := range cases {
		if got, err := r.Get(c.provider, c.base); err != nil || got != c.want {
			t.Errorf("Get(%s, %q) = %q, %v; want %q", c.provider, c.base, got, err, c.want)
		}
	}
	fi, err := os.Stat(filepath.Join(home, keyring.File))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %v, %v", fi.Mode(), err)
	}
	if err := r.Delete(llm.ProviderOpenAI, ""); err != nil {
		t.Fatal(err)
	}
	if has, _ := r.Has(llm.ProviderOpenAI, ""); has {
		t.Fatal("deleted key still there")
	}
	// A second process (a new Ring) reads what the first wrote.
	if got, _ := keyring.Open(home).Get(llm.ProviderOpenAI, "https://api.deepseek.com/v1"); got != "sk-deepseek-BBBB" {
		t.Fatalf("reopened ring lost the key: %q", got)
	}
	entries, _ := os.ReadDir(home)
	for _, e := range entries {
		if e.Name() != keyring.File {
			t.Errorf("stray file in home: %s", e.Name())
		}
	}
}

func TestBadKeysRefusedWithoutEcho(t *testing.T) {
	r := keyring.Open(t.TempDir())
	cases := []struct{ key, code string }{
		{"", llm.CodeKeyEmpty},
		{"   ", llm.CodeKeyEmpty},
		{"sk-abc def", llm.CodeInvalidConfig},
		{"sk-abc\x00def", llm.CodeInvalidConfig},
		{strings.Repeat("k", keyring.MaxKeyLen+1), llm.CodeInvalidConfig},
	}
	for _, c := range cases {
		err := r.Set(llm.ProviderOpenAI, "", c.key)
		ce, ok := coded.As(err)
		if !ok || ce.ErrorCode() != c.code {
			t.Fatalf("Set(%q) = %v, want %s", c.key, err, c.code)
		}
		if strings.TrimSpace(c.key) != "" && strings.Contains(err.Error(), strings.TrimSpace(c.key)) {
			t.Fatalf("error repeats the key: %v", err)
		}
	}
}

func TestCorruptFileIsCodedAndNotQuoted(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, keyring.File), []byte(`{"keys": sk-leaked-SECRET`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := keyring.Open(home).Get(llm.ProviderOpenAI, "")
	if llm.CodeOf(err) != llm.CodeKeyStore || strings.Contains(err.Error(), "SECRET") {
		t.Fatalf("corrupt file: %v", err)
	}
}

// TestKeyFromAWindowsFileOrAWebPage: a key file Notepad saved as "UTF-8 with BOM" (`engram llm
// key set < key.txt`) gave a key starting with U+FEFF, which was kept and sent in the header,
// and the provider refused a right key as a wrong one. The mark is not part of the key; an
// invisible character a copy from a web page carries (zero-width space, word joiner) is
// refused with its reason, never kept.
func TestKeyFromAWindowsFileOrAWebPage(t *testing.T) {
	r := keyring.Open(t.TempDir())
	if err := r.Set(llm.ProviderOpenAI, "", "\ufeffsk-proj-abc123\r\n"); err != nil {
		t.Fatal(err)
	}
	if k, err := r.Get(llm.ProviderOpenAI, ""); err != nil || k != "sk-proj-abc123" {
		t.Fatalf("key kept as %q, %v", k, err)
	}
	for _, key := range []string{"sk-proj-\u200babc123", "\u2060sk-proj-abc123", "sk-proj-\u00adabc123", "sk-prój-abc123"} {
		err := r.Set(llm.ProviderOpenAI, "", key)
		var e *llm.Error
		if !errors.As(err, &e) || e.Code != llm.CodeInvalidConfig || strings.Contains(err.Error(), "abc123") {
			t.Fatalf("Set(%q) = %v, want %s without the key", key, err, llm.CodeInvalidConfig)
		}
	}
	if k, _ := r.Get(llm.ProviderOpenAI, ""); k != "sk-proj-abc123" {
		t.Fatalf("a refused key replaced the good one: %q", k)
	}
}
