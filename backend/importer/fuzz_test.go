package importer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"engram/backend/coded"
	"engram/backend/memory/format"
)

// Each format's parser on arbitrary bytes: it either fails whole with a coded error, or
// returns records whose slugs are valid, whose titles fit the limit, and that never name a
// path — never a panic, never a half-converted source.
func fuzzFormat(f *testing.F, source, name string, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		recs, err := Convert(source, p, Options{UserHome: "/nonexistent", Workdir: "/work/fuzz"})
		if err != nil {
			if _, ok := coded.As(err); !ok || recs != nil {
				t.Fatalf("uncoded error or records with an error: %v", err)
			}
			return
		}
		for _, r := range recs {
			if !format.ValidSlug(r.Slug) || strings.ContainsAny(r.Slug, `/\`) {
				t.Fatalf("slug %q", r.Slug)
			}
			if utf8.RuneCountInString(r.Title) > format.MaxTitleChars || strings.Contains(r.Title, "\n") || !utf8.ValidString(r.Body) {
				t.Fatalf("title %q", r.Title)
			}
			if !r.Scope.Valid() || !r.Type.Writable() {
				t.Fatalf("scope %q type %q", r.Scope, r.Type)
			}
		}
	})
}

func seed(t testing.TB, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func FuzzMem0(f *testing.F) {
	fuzzFormat(f, FormatMem0, "export.json", seed(f, "testdata/mem0/get_all.json"), seed(f, "testdata/mem0/list.json"),
		`[{"memory":"x","agent_id":"A/../b","created_at":1e300}]`, `{"results":null}`)
}

func FuzzChatGPT(f *testing.F) {
	fuzzFormat(f, FormatChatGPT, "memory.json", seed(f, "testdata/chatgpt/memory.json"), seed(f, "testdata/chatgpt/memories.txt"),
		`{"memories":[{"text":"y","create_time":1700000000.5}]}`)
}

func FuzzClaudeMarkdown(f *testing.F) {
	fuzzFormat(f, FormatClaude, "CLAUDE.md", seed(f, "testdata/claude/home/code/shop/CLAUDE.md"), seed(f, "testdata/claude/home/.claude/CLAUDE.md"),
		"- a\n```\n- b\n  - c\n", "---\nname: x\n---\n- [t](t.md) — d\n")
}

func FuzzObsidianNote(f *testing.F) {
	fuzzFormat(f, FormatObsidian, "note.md", seed(f, "testdata/obsidian/vault/Coffee Brewing Methods.md"), seed(f, "testdata/obsidian/vault/people/Maria.md"),
		"---\npermalink: ../../x\ntags: 5\n---\n# x\n", "---\n---\n", "---\n")
}
