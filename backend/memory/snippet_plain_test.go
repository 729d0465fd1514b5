package memory

import (
	"strings"
	"testing"
)

func TestMarkdownText(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"table", "| a | b |\n|---|---|\n| 1 | 2 |", "a · b\n1 · 2\n"},
		{"aligned table rule", "| x | y |\n| :--- | ---: |", "x · y\n"},
		{"heading and list", "# Plan\n- buy milk\n* call mum\n1. ship it\n- [x] done", "Plan\nbuy milk\ncall mum\nship it\ndone\n"},
		{"links", "see [the docs](https://example.com/a) and ![logo](x.png)", "see the docs and logo\n"},
		{"wiki links", "met [[Alice Chen]] at [[acme-corp|Acme]]", "met Alice Chen at Acme\n"},
		{"emphasis", "**bold** and *soft* and ~~gone~~ and `code`", "bold and soft and gone and code\n"},
		{"snake case kept", "use snake_case_names and 2*3*4", "use snake_case_names and 2*3*4\n"},
		{"quote and rule", "> said so\n\n---\nafter", "said so\nafter\n"},
		{"fence keeps code", "```go\nx := 1 // | not a table\n```", "x := 1 // | not a table\n"},
		{"chinese", "## 今天\n- 和**小王**吃饭", "今天\n和小王吃饭\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := MarkdownText(c.in); got != c.want {
				t.Errorf("MarkdownText(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestPlainSnippetCentresOnTheQuery(t *testing.T) {
	body := "| when | what |\n|---|---|\n" + "| 09:00 | standup |\n" + "| 10:00 | **deploy** the [bridge](https://x) |\n"
	got := PlainSnippet(body, "bridge", 30)
	if got == "" || !strings.Contains(got, "bridge") || strings.Contains(got, "|") || strings.Contains(got, "](") {
		t.Fatalf("PlainSnippet = %q, want plain text around 'bridge'", got)
	}
}

func TestPlainSnippetOfALongBodyReadsItsStart(t *testing.T) {
	body := "# Notes\n\nFirst line that matters.\n" + strings.Repeat("- filler line of the list\n", 400)
	got := PlainSnippet(body, "", 160)
	if !strings.HasPrefix(got, "Notes First line that matters.") || !strings.HasSuffix(got, "…") || len([]rune(got)) > 162 {
		t.Fatalf("PlainSnippet = %q", got)
	}
}

func TestPlainSnippetFindsAFarMatch(t *testing.T) {
	body := strings.Repeat("| a | b |\n", 300) + "We **rotate** the deploy key every [quarter](https://x/q).\n" + strings.Repeat("- tail\n", 300)
	got := PlainSnippet(body, "rotate", 160)
	if !strings.Contains(got, "We rotate the deploy key every quarter.") || !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "…") {
		t.Fatalf("PlainSnippet = %q", got)
	}
}
