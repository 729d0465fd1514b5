package recall

import (
	"errors"
	"strings"
	"testing"

	"engram/backend/memory"
)

func TestGrep(t *testing.T) {
	e := newEnv(t)
	wd := t.TempDir()
	e.write(
		mem{slug: "ports", typ: memory.TypeProject, title: "Ports", body: "api listens on :8080\nmetrics on :9090\nnothing else"},
		mem{slug: "errors", typ: memory.TypeExperience, title: "Timeout fix", body: "ERR_TIMEOUT came from the proxy.\nFixed by raising idle_timeout."},
		mem{slug: "proj", scope: memory.ScopeProject, workdir: wd, typ: memory.TypeProject, title: "Local ports", body: "dev server on :3000"},
		mem{slug: "zh-note", title: "端口", body: "本地服务监听 3000 端口"},
	)
	res, err := e.svc.Grep(e.ctx, GrepParams{Pattern: `:\d{4}\b`})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 2 {
		t.Fatalf("regex across visible memories: %+v", res.Hits)
	}
	for _, h := range res.Hits {
		if h.Memory.Slug == "ports" && (h.Count != 2 || h.Lines[0].Line != 1 || h.Lines[0].Text != "api listens on :8080") {
			t.Fatalf("lines %+v", h)
		}
	}
	ci, _ := e.svc.Grep(e.ctx, GrepParams{Pattern: "err_timeout", IgnoreCase: true})
	cs, _ := e.svc.Grep(e.ctx, GrepParams{Pattern: "err_timeout"})
	if len(ci.Hits) != 1 || len(cs.Hits) != 0 {
		t.Fatalf("case: %d / %d", len(ci.Hits), len(cs.Hits))
	}
	proj, _ := e.svc.Grep(e.ctx, GrepParams{Pattern: "3000", Workdir: wd})
	if len(proj.Hits) != 2 {
		t.Fatalf("project view sees the project's memory and global ones: %d", len(proj.Hits))
	}
	glob, _ := e.svc.Grep(e.ctx, GrepParams{Pattern: "3000", Scope: memory.ScopeGlobal})
	if len(glob.Hits) != 1 || glob.Hits[0].Memory.Slug != "zh-note" {
		t.Fatalf("global only: %+v", glob.Hits)
	}
	title, _ := e.svc.Grep(e.ctx, GrepParams{Pattern: "^Timeout"})
	if len(title.Hits) != 1 || title.Hits[0].Lines[0].Line != 0 {
		t.Fatalf("line 0 is the title: %+v", title.Hits)
	}
	for _, bad := range []string{"", "(unclosed", "a{2,1}"} {
		_, err := e.svc.Grep(e.ctx, GrepParams{Pattern: bad})
		var re *Error
		if !errors.As(err, &re) || re.Code != CodeInvalidPattern {
			t.Errorf("%q: %v", bad, err)
		}
	}
	lim, _ := e.svc.Grep(e.ctx, GrepParams{Pattern: "o", Limit: 1})
	if len(lim.Hits) != 1 || !lim.Truncated {
		t.Fatalf("limit: %d truncated=%v", len(lim.Hits), lim.Truncated)
	}
}

func TestRequiredLiteral(t *testing.T) {
	cases := map[string]string{
		"ERR_TIMEOUT":      "ERR_TIMEOUT",
		`listens on :\d+`:  "listens on :",
		"foo|barbaz":       "",
		"ab":               "",
		`(?i)timeout\s+\d`: "timeout",
		"端口号":              "端口号",
	}
	for expr, want := range cases {
		if got := requiredLiteral(expr); !strings.EqualFold(got, want) { // (?i) literals come back folded
			t.Errorf("%q: %q, want %q", expr, got, want)
		}
	}
}
