package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"engram/backend/api"
	"engram/backend/i18n"
	"engram/backend/memory"
	"engram/backend/wire"
)

// home runs CLI commands against one temporary home, opening the services per command like
// the real binary does.
type home struct {
	t   *testing.T
	dir string
	cat *i18n.Catalog
}

func newHome(t *testing.T) *home {
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	return &home{t: t, dir: t.TempDir(), cat: cat}
}

func (h *home) run(stdin string, args ...string) (code int, stdout, stderr string) {
	h.t.Helper()
	var out, errb bytes.Buffer
	env := h.env(&out, &errb)
	env.Stdin = strings.NewReader(stdin)
	code = Run(context.Background(), args, env)
	return code, out.String(), errb.String()
}

// env is the Env of one command on this home, writing to out and errb.
func (h *home) env(out, errb *bytes.Buffer) Env {
	return Env{
		Stdin: strings.NewReader(""), Stdout: out, Stderr: errb, Version: "test", Catalog: h.cat, Lang: "en",
		Open: func(ctx context.Context) (*api.API, func() error, error) {
			// The one constructor the binary's CLI uses (through App), one-shot: passive.
			svc, err := wire.Open(ctx, wire.Options{Home: h.dir, Lang: "en", Catalog: h.cat, Passive: true})
			if err != nil {
				return nil, nil, err
			}
			return svc.API(ctx, api.ActorUser), svc.Close, nil
		},
		OpenRunner: func(ctx context.Context) (*api.API, func() error, error) {
			// engram organize's: one-shot, but its organizer executes the run it waits for.
			svc, err := wire.Open(ctx, wire.Options{Home: h.dir, Lang: "en", Catalog: h.cat, Passive: true, RunsOrganizer: true})
			if err != nil {
				return nil, nil, err
			}
			return svc.API(ctx, api.ActorUser), svc.Close, nil
		},
		ReadFile: os.ReadFile,
	}
}

func (h *home) ok(args ...string) string {
	h.t.Helper()
	code, out, errs := h.run("", args...)
	if code != 0 {
		h.t.Fatalf("engram %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, out, errs)
	}
	return out
}

func TestWriteShowSearchListJSON(t *testing.T) {
	h := newHome(t)
	h.ok("write", "--scope", "global", "--type", "user", "--slug", "prefers-tea", "--title", "Prefers tea",
		"--body", "Drinks green tea. 喜欢喝绿茶。", "--quote", "I only drink green tea", "--confidence", "high")
	wd := t.TempDir()
	h.ok("write", "--scope", "project", "--workdir", wd, "--type", "project", "--slug", "db-engine",
		"--title", "Database", "--body", "The service uses Postgres 16")
	if out := h.ok("show", "prefers-tea"); !strings.Contains(out, "Prefers tea") || !strings.Contains(out, "high") {
		t.Fatalf("show: %s", out)
	}
	var hits []map[string]any
	if err := json.Unmarshal([]byte(h.ok("search", "绿茶", "--json", "--limit", "5")), &hits); err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 {
		t.Fatalf("hits %v", hits)
	}
	for _, k := range []string{"id", "slug", "title", "scope", "type", "score"} {
		if _, ok := hits[0][k]; !ok {
			t.Fatalf("search --json lacks %s: %v", k, hits[0])
		}
	}
	var list api.ListResult
	if err := json.Unmarshal([]byte(h.ok("list", "--scope", "project", "--workdir", wd, "--json")), &list); err != nil {
		t.Fatal(err)
	}
	if list.Total != 1 || list.Items[0].Slug != "db-engine" {
		t.Fatalf("project list %+v", list)
	}
	// Project scope without a workdir is refused, translated.
	code, _, errs := h.run("", "list", "--scope", "project")
	if code != 1 || !strings.Contains(errs, "workdir") {
		t.Fatalf("list project without workdir: %d %s", code, errs)
	}
	var q memory.QuotaSummary
	if err := json.Unmarshal([]byte(h.ok("quota", "--json")), &q); err != nil {
		t.Fatal(err)
	}
	if len(q.Scopes) != 2 || q.Scopes[0].Used != 1 || q.Scopes[0].Limit != 500 || q.Scopes[0].Headroom != 499 || q.Scopes[0].Level != "normal" {
		t.Fatalf("quota %+v", q)
	}
}

func TestLifecycleVerbs(t *testing.T) {
	h := newHome(t)
	h.ok("write", "--type", "feedback", "--slug", "be-direct", "--title", "Be direct", "--body", "Short answers")
	h.ok("accept", "be-direct")
	h.ok("archive", "be-direct")
	if out := h.ok("list"); !strings.Contains(out, "No memories") {
		t.Fatalf("archived still listed: %s", out)
	}
	var list api.ListResult
	_ = json.Unmarshal([]byte(h.ok("list", "--archived", "--json")), &list)
	if list.Total != 1 {
		t.Fatalf("archived list %+v", list)
	}
	h.ok("restore", list.Items[0].ID)
	h.ok("reject", "be-direct")
	code, _, errs := h.run("", "write", "--type", "feedback", "--slug", "be-direct", "--title", "Again", "--body", "x")
	if code != 1 || !strings.Contains(errs, "rejected") {
		t.Fatalf("rejected slug rewritten: %d %s", code, errs)
	}
	h.ok("write", "--type", "user", "--slug", "to-delete", "--title", "Temp", "--body", "x")
	h.ok("delete", "to-delete")
	if entries, _ := os.ReadDir(filepath.Join(h.dir, "memory", ".trash")); len(entries) != 2 {
		t.Fatalf("trash has %d files", len(entries))
	}
	// The trash gives back by slug (deleted, then rejected) and by the id `show` printed.
	var shown api.ReadResult
	h.ok("restore", "to-delete")
	_ = json.Unmarshal([]byte(h.ok("show", "to-delete", "--json")), &shown)
	h.ok("delete", "to-delete")
	if out := h.ok("restore", shown.Memory.ID); !strings.Contains(out, "to-delete") {
		t.Fatalf("restore by a trashed id: %s", out)
	}
	h.ok("restore", "be-direct")
	if code, _, errs := h.run("", "restore", "never-was"); code != 1 || !strings.Contains(errs, "never-was") {
		t.Fatalf("restore of nothing: %d %s", code, errs)
	}
	h.ok("delete", "to-delete")
	h.ok("daily", "append", "Shipped", "the", "CLI")
	if out := h.ok("daily", "show"); !strings.Contains(out, "Shipped the CLI") {
		t.Fatalf("daily: %s", out)
	}
	if out := h.ok("history"); !strings.Contains(out, "reject") || !strings.Contains(out, "append_daily") {
		t.Fatalf("history: %s", out)
	}
}

func TestImportExportReindexDoctor(t *testing.T) {
	h := newHome(t)
	in := filepath.Join(t.TempDir(), "in.jsonl")
	lines := `{"slug":"good-one","title":"Good","scope":"global","type":"reference","body":"kept"}
{not json
{"slug":"Bad Slug","title":"x","scope":"global","type":"user","body":"b"}
{"slug":"good-two","title":"Good 2","scope":"global","type":"user","body":"kept too","confidence":"high","source_quote":"said it twice"}
`
	if err := os.WriteFile(in, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := h.run("", "import", in)
	if code != 1 || !strings.Contains(out, "Imported 2") || !strings.Contains(errs, "line 2") || !strings.Contains(errs, "line 3") {
		t.Fatalf("import: %d\n%s\n%s", code, out, errs)
	}
	exported := h.ok("export")
	if n := strings.Count(strings.TrimSpace(exported), "\n") + 1; n != 2 {
		t.Fatalf("export has %d lines", n)
	}
	other := newHome(t)
	p := filepath.Join(t.TempDir(), "ex.jsonl")
	_ = os.WriteFile(p, []byte(exported), 0o644)
	other.ok("import", p)
	if a, b := h.ok("export"), other.ok("export"); a != b {
		t.Fatalf("round trip differs:\n%s\n%s", a, b)
	}
	// The same memories as a Markdown folder; a second export into it is refused, translated.
	vault := filepath.Join(t.TempDir(), "vault")
	if out := h.ok("export", "--markdown", vault); !strings.Contains(out, "Exported 2 memories") || !strings.Contains(out, vault) {
		t.Fatalf("markdown export said %q", out)
	}
	if _, err := os.Stat(filepath.Join(vault, "global", "user", "good-two.md")); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := h.run("", "export", "--markdown", vault); code == 0 || !strings.Contains(errs, "is not empty") {
		t.Fatalf("export into a full folder: %d %q", code, errs)
	}
	// A broken hand edit is reported by doctor (exit 1) and left as it is.
	bad := filepath.Join(h.dir, "memory", "global", "user", "broken.md")
	_ = os.WriteFile(bad, []byte("---\nid: [unclosed\n---\nbroken header here"), 0o644)
	// A temp file an interrupted write left behind: swept at open, and doctor says so.
	_ = os.WriteFile(filepath.Join(h.dir, "memory", "global", "user", ".tmp-4242"), []byte("half a wr"), 0o600)
	code, out, _ = h.run("", "doctor")
	if code != 1 || !strings.Contains(out, "global/user/broken.md") {
		t.Fatalf("doctor: %d %s", code, out)
	}
	if !strings.Contains(out, "Checksum pass: 2 checked, none differed") ||
		!strings.Contains(out, "interrupted writes, removed: 1") || !strings.Contains(out, "global/user/.tmp-4242") {
		t.Fatalf("doctor does not report its checksum pass and the swept temp file:\n%s", out)
	}
	if data, _ := os.ReadFile(bad); string(data) != "---\nid: [unclosed\n---\nbroken header here" {
		t.Fatal("doctor touched the broken file")
	}
	if out := h.ok("reindex"); !strings.Contains(out, "2 memories") {
		t.Fatalf("reindex: %s", out)
	}
}

func TestUsageAndLanguage(t *testing.T) {
	h := newHome(t)
	if code, _, errs := h.run("", "frobnicate"); code != 2 || !strings.Contains(errs, "frobnicate") {
		t.Fatalf("unknown command: %d %s", code, errs)
	}
	if code, _, _ := h.run("", "search"); code != 2 {
		t.Fatalf("search without query: %d", code)
	}
	if code, out, _ := h.run("", "help"); code != 0 || !strings.Contains(out, "engram") {
		t.Fatalf("help: %d", code)
	}
	var zh bytes.Buffer
	Run(context.Background(), []string{"help"}, Env{Stdout: &zh, Stderr: &zh, Catalog: h.cat, Lang: "zh_CN.UTF-8"})
	if !strings.Contains(zh.String(), "用法") {
		t.Fatalf("chinese help: %s", zh.String())
	}
}

func TestImportKeepReviewOnlyWhenAsked(t *testing.T) {
	line := `{"slug":"restored","title":"Restored","scope":"global","type":"user","body":"mine","reviewed":true,"source":{"kind":"user"}}` + "\n"
	cases := []struct {
		name     string
		flags    []string
		reviewed bool
		kind     string
	}{
		{"default", nil, false, memory.ActorImport},
		{"keep review", []string{"--keep-review"}, true, "user"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHome(t)
			in := filepath.Join(t.TempDir(), "in.jsonl")
			if err := os.WriteFile(in, []byte(line), 0o644); err != nil {
				t.Fatal(err)
			}
			h.ok(append([]string{"import", in}, tc.flags...)...)
			var res struct {
				Memory memory.Memory `json:"memory"`
			}
			if err := json.Unmarshal([]byte(h.ok("show", "restored", "--json")), &res); err != nil {
				t.Fatal(err)
			}
			if res.Memory.Reviewed != tc.reviewed || res.Memory.Source.Kind != tc.kind {
				t.Fatalf("reviewed=%v source=%+v, want %v %s", res.Memory.Reviewed, res.Memory.Source, tc.reviewed, tc.kind)
			}
		})
	}
}

// shortWriter takes n bytes, then fails as a full disk does.
type shortWriter struct{ n int }

func (w *shortWriter) Write(p []byte) (int, error) {
	if len(p) <= w.n {
		w.n -= len(p)
		return len(p), nil
	}
	k := w.n
	w.n = 0
	return k, errors.New("no space left on device")
}

// An export whose output cannot be written whole fails, saying so, instead of printing
// "Exported N memories." over a cut file the person would keep as their copy.
func TestExportShortWriteFails(t *testing.T) {
	h := newHome(t)
	h.ok("write", "--scope", "global", "--type", "user", "--slug", "prefers-tea", "--title", "Prefers tea", "--body", "Drinks green tea.")
	var errb bytes.Buffer
	env := h.env(&bytes.Buffer{}, &errb)
	env.Stdout = &shortWriter{n: 10}
	if code := Run(context.Background(), []string{"export"}, env); code == 0 {
		t.Fatalf("export to a full disk exited 0: %s", errb.String())
	}
	if s := errb.String(); !strings.Contains(s, "could not be written whole") || strings.Contains(s, "Exported") {
		t.Fatalf("stderr: %s", s)
	}
}
