package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"engram/backend/api"
	"engram/backend/i18n"
)

// TestVerbsWithoutOtherTests: the verbs the older tests left out keep their output shapes and
// exit codes: bridge token (with --json exactly {"token"}; this home runs no bridge), daily list, history of one memory,
// export --json (still JSONL) and the human search and quota lines.
func TestVerbsWithoutOtherTests(t *testing.T) {
	h := newHome(t)
	h.ok("write", "--type", "user", "--slug", "likes-go", "--title", "Likes Go", "--body", "Writes Go daily")
	h.ok("daily", "append", "--agent", "claude", "Reviewed", "the", "wire")

	var tok map[string]any
	if err := json.Unmarshal([]byte(h.ok("bridge", "token", "--json")), &tok); err != nil {
		t.Fatal(err)
	}
	if _, ok := tok["token"]; len(tok) != 1 || !ok {
		t.Fatalf("bridge token --json: %v", tok)
	}
	if out := h.ok("bridge", "token"); !strings.Contains(out, "oken") {
		t.Fatalf("bridge token: %s", out)
	}
	// A regenerate prints the new token (it printed a browser's refusal of an old one once, the
	// two messages sharing a key in different sections).
	cmd := exec.Command(engramCLI(t), "bridge", "token", "--regenerate")
	cmd.Env = append(os.Environ(), "ENGRAM_HOME="+h.dir, "LANG=en_US.UTF-8")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bridge token --regenerate: %v", err)
	}
	regen := string(out)
	file, err := os.ReadFile(filepath.Join(h.dir, "bridge.token"))
	if err != nil {
		t.Fatal(err)
	}
	if nt := strings.TrimSpace(string(file)); len(nt) < 32 || !strings.Contains(regen, nt) || !strings.HasPrefix(regen, "New token: ") {
		t.Fatalf("bridge token --regenerate printed %q, the token is %q", regen, nt)
	}
	if code, _, _ := h.run("", "bridge"); code != 2 {
		t.Fatalf("bridge without token: exit %d", code)
	}
	if code, _, _ := h.run("", "daily", "frobnicate"); code != 2 {
		t.Fatalf("daily frobnicate: exit %d", code)
	}
	var days api.DayListResult
	if err := json.Unmarshal([]byte(h.ok("daily", "list", "--json")), &days); err != nil || len(days.Days) != 1 {
		t.Fatalf("daily list: %v %+v", err, days)
	}
	if out := h.ok("daily", "list"); !strings.Contains(out, days.Days[0].Date) {
		t.Fatalf("daily list: %s", out)
	}
	var hist api.HistoryResult
	if err := json.Unmarshal([]byte(h.ok("history", "likes-go", "--json")), &hist); err != nil {
		t.Fatal(err)
	}
	if len(hist.Entries) != 1 || hist.Entries[0].Slug != "likes-go" {
		t.Fatalf("history of one memory: %+v", hist)
	}
	if ex := h.ok("export", "--json"); strings.Count(ex, "\n") != 2 || !strings.HasPrefix(ex, "{") {
		t.Fatalf("export --json is not the JSONL: %q", ex)
	}
	if out := h.ok("search", "Go"); !strings.Contains(out, " 1. Likes Go  [global/likes-go]") {
		t.Fatalf("search: %s", out)
	}
	if out := h.ok("search", "nothing-matches-this"); !strings.Contains(out, "No") {
		t.Fatalf("search without hits: %s", out)
	}
	if out := h.ok("quota"); !strings.Contains(out, "global") {
		t.Fatalf("quota: %s", out)
	}
	if out := h.ok("show", "likes-go"); !strings.Contains(out, "# Likes Go") || !strings.Contains(out, "Writes Go daily") {
		t.Fatalf("show: %s", out)
	}
	if code, out, _ := h.run("", "version"); code != 0 || out != "test\n" {
		t.Fatalf("version: %d %q", code, out)
	}
}

// TestServeVerb: serve hands its arguments to Env.Serve and returns its exit code without
// opening the home; a build without it says so and exits 1.
func TestServeVerb(t *testing.T) {
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var errb bytes.Buffer
	env := Env{Stdout: &errb, Stderr: &errb, Catalog: cat, Lang: "en",
		Serve: func(_ context.Context, args []string) int { got = args; return 7 },
		Open: func(context.Context) (*api.API, func() error, error) {
			t.Fatal("serve opened the home")
			return nil, nil, nil
		}}
	if code := Run(context.Background(), []string{"serve", "--addr", "127.0.0.1:1"}, env); code != 7 ||
		!reflect.DeepEqual(got, []string{"--addr", "127.0.0.1:1"}) {
		t.Fatalf("serve: exit %d args %v", code, got)
	}
	env.Serve = nil
	if code := Run(context.Background(), []string{"serve"}, env); code != 1 || errb.Len() == 0 {
		t.Fatalf("serve unavailable: exit %d %q", code, errb.String())
	}
}

// TestWriteWithoutSlug: `engram write` makes the slug from the title when none is given, and
// says so; the same title again is reported as taken, with a non-zero exit.
func TestWriteWithoutSlug(t *testing.T) {
	h := newHome(t)
	if out := h.ok("write", "--type", "user", "--title", "Prefers green tea", "--body", "Every afternoon"); !strings.Contains(out, "prefers-green-tea") {
		t.Fatalf("write without --slug: %s", out)
	}
	if out := h.ok("write", "--type", "user", "--title", "猫", "--body", "我的猫叫咪咪。"); !strings.Contains(out, "Wrote 猫 ") {
		t.Fatalf("write with a Chinese title: %s", out)
	}
	if code, _, stderr := h.run("", "write", "--type", "user", "--title", "Prefers green tea", "--body", "Again"); code == 0 || !strings.Contains(stderr, "prefers-green-tea") {
		t.Fatalf("the same title again: exit %d, %s", code, stderr)
	}
}
