package api

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"engram/backend/memory"
)

// A journal append (or a write) refused because a file that cannot be read holds its place
// says the file's reason in the person's language: the Chinese refusal carried the YAML
// parser's English ("memory: invalid frontmatter: yaml: line 2: did not find expected ','
// or ']'"), whether the file was already recorded as a problem or found broken by the write.
func TestHeldFileRefusalFollowsLanguage(t *testing.T) {
	for _, recorded := range []bool{true, false} {
		for _, tc := range []struct{ lang, want string }{
			{"en", "the header is not valid YAML at line 2 ("},
			{"zh-CN", "文件头第 2 行不是有效的 YAML（"},
		} {
			a := newAPI(t, memory.ActorUser)
			st := a.deps.Store
			if _, err := a.Call("settings.update", json.RawMessage(`{"language":"`+tc.lang+`"}`)); err != nil {
				t.Fatal(err)
			}
			day, err := a.Daily.Read(DayParams{})
			if err != nil {
				t.Fatal(err)
			}
			broken := []byte("---\nid: [unclosed\n---\nwritten by hand\n")
			for _, rel := range []string{"daily/" + day.Today + ".md", "global/user/held.md"} {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(st.Root(), rel)), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(st.Root(), rel), broken, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if recorded {
				if _, err := st.Reconcile(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			for what, call := range map[string]func() error{
				"append": func() error { _, err := a.Daily.Append(AppendParams{Text: "An entry."}); return err },
				"write": func() error {
					_, err := a.Memory.Write(WriteParams{Scope: memory.ScopeGlobal, Type: memory.TypeUser, Slug: "held", Title: "Held", Body: "A note."})
					return err
				},
			} {
				var ae *Error
				if err := call(); !errors.As(err, &ae) || ae.Code != memory.CodeSlugHeldByUnparsable ||
					!strings.Contains(ae.Message, tc.want) || strings.Contains(ae.Message, "did not find expected") {
					t.Errorf("recorded %v, %s %s: %v", recorded, tc.lang, what, err)
				}
			}
			data, err := os.ReadFile(filepath.Join(st.Root(), "daily", day.Today+".md"))
			if err != nil || string(data) != string(broken) {
				t.Fatalf("the day's file changed: %q, %v", data, err)
			}
		}
	}
}

// A secret pasted into today's journal by hand refuses the next append (it would reach the
// index through it); the refusal's reason was the scanner's English inside the Chinese message.
func TestHandSecretRefusalFollowsLanguage(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	if _, err := a.Call("settings.update", json.RawMessage(`{"language":"zh-CN"}`)); err != nil {
		t.Fatal(err)
	}
	day, err := a.Daily.Append(AppendParams{Text: "An entry."})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(a.deps.Store.Root(), filepath.FromSlash(day.Path))
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	secret := "ghp_" + strings.Repeat("A1b2C3d4E5", 4)[:36]
	if err := os.WriteFile(p, append(data, []byte("\npasted "+secret+"\n")...), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = a.Daily.Append(AppendParams{Text: "Another entry."})
	var ae *Error
	if !errors.As(err, &ae) || !strings.Contains(ae.Message, "位于") || strings.Contains(ae.Message, secret) {
		t.Fatalf("append after a pasted secret: %v", err)
	}
}
