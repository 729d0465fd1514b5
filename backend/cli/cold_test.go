package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/oklog/ulid/v2"

	"engram/backend/api"
	"engram/backend/memory"
)

// handMemory is a memory file as a person writes one in an editor.
func handMemory(id, title, body string) []byte {
	return []byte("---\nid: " + id + "\ntitle: " + title + "\nconfidence: high\nreviewed: true\n---\n\n" + body + "\n")
}

// editInPlace rewrites the file at p in place (same inode) with from replaced by to (same
// length), then puts its mtime back: only ctime and the bytes tell.
func editInPlace(t *testing.T, p, from, to string) {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	edited := strings.Replace(string(data), from, to, 1)
	if len(edited) != len(data) || edited == string(data) {
		t.Fatalf("edit of %s must keep the size", p)
	}
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte(edited), 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
}

// handEdits makes one change of each kind under memory/global/reference of dir and returns the
// searches (query → slug expected first, "" expected absent) that tell whether a CLI saw them.
func handEdits(t *testing.T, dir, tag string) map[string]string {
	t.Helper()
	ref := filepath.Join(dir, "memory", "global", "reference")
	if err := os.WriteFile(filepath.Join(ref, "created-"+tag+".md"), handMemory(ulid.Make().String(), "Created "+tag, "zebracreated"+tag+" arrived"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(ref, "deleted-"+tag+".md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(ref, "renamed-"+tag+".md"), filepath.Join(ref, "moved-"+tag+".md")); err != nil {
		t.Fatal(err)
	}
	editInPlace(t, filepath.Join(ref, "edited-"+tag+".md"), "plainword", "xylophone")
	return map[string]string{
		"zebracreated" + tag:  "created-" + tag,
		"quokkadeleted" + tag: "",
		"quokkarenamed" + tag: "moved-" + tag,
		"xylophone":           "edited-" + tag,
	}
}

// seedHandFiles places the files handEdits changes.
func seedHandFiles(t *testing.T, dir, tag string) {
	t.Helper()
	ref := filepath.Join(dir, "memory", "global", "reference")
	if err := os.MkdirAll(ref, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ slug, body string }{
		{"deleted-" + tag, "quokkadeleted" + tag + " lives here"},
		{"renamed-" + tag, "quokkarenamed" + tag + " lives here"},
		{"edited-" + tag, "a plainword " + tag + " lives here"},
	} {
		if err := os.WriteFile(filepath.Join(ref, f.slug+".md"), handMemory(ulid.Make().String(), "Seed "+f.slug, f.body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func checkSearches(t *testing.T, when string, search func(q string) string, want map[string]string) {
	t.Helper()
	for q, slug := range want {
		out := search(q)
		switch {
		case slug == "" && strings.Contains(out, "["):
			t.Errorf("%s: search %q still finds the deleted file: %s", when, q, out)
		case slug != "" && !strings.Contains(out, slug):
			t.Errorf("%s: search %q does not find %s: %s", when, q, slug, out)
		}
	}
}

// Hand edits made while no Engram process runs (create, delete, rename, an in-place edit that
// keeps size and mtime) are seen by the next CLI call of the real binary.
func TestNextCLICallSeesHandEdits(t *testing.T) {
	h := binHome{t: t, bin: engramCLI(t), dir: t.TempDir()}
	h.ok("", "reindex")
	seedHandFiles(t, h.dir, "a")
	h.ok("", "search", "quokkadeleteda") // indexed by this call's open
	want := handEdits(t, h.dir, "a")
	checkSearches(t, "no process running", func(q string) string { return h.ok("", "search", q) }, want)
}

// forwardTo is main.go's Env.Forward over the real socket: the answer of the process that
// watches dir, or ok false.
func forwardTo(dir string, forwarded *int) func(ctx context.Context, method string, params, result any) (bool, error) {
	return func(ctx context.Context, method string, params, result any) (bool, error) {
		res, errJSON, err := memory.ForwardCall(ctx, dir, method, params)
		if err != nil {
			return false, nil
		}
		*forwarded++
		if errJSON != nil {
			ae := &api.Error{}
			_ = json.Unmarshal(errJSON, ae)
			return true, ae
		}
		return true, json.Unmarshal(res, result)
	}
}

// With `engram serve` running (the real binary, owning the watcher): a search is answered by
// it, without the CLI opening the home; a hand edit made a moment before is already in the
// answer; its ranking is the one a local open gives. Once serve is killed (SIGKILL) edits made
// after are seen by the next call, which opens the home itself.
func TestSearchForwardedToServe(t *testing.T) {
	bin := engramCLI(t)
	h := newHome(t)
	h.ok("write", "--scope", "global", "--type", "user", "--slug", "prefers-tea", "--title", "Prefers tea",
		"--body", "Drinks green tea every morning", "--quote", "I drink green tea", "--confidence", "high")
	h.ok("write", "--scope", "global", "--type", "user", "--slug", "tea-time", "--title", "Tea time",
		"--body", "Tea at four", "--quote", "tea at four")
	seedHandFiles(t, h.dir, "b")
	h.ok("reindex")

	serve := exec.Command(bin, "serve", "--addr", "127.0.0.1:0")
	serve.Env = append(os.Environ(), "ENGRAM_HOME="+h.dir, "LANG=en_US.UTF-8")
	stdout, _ := serve.StdoutPipe()
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	defer serve.Process.Kill()
	if _, err := bufio.NewReader(stdout).ReadString('\n'); err != nil { // "listening on …"
		t.Fatal(err)
	}
	forwarded, opened := 0, 0
	search := func(args ...string) string {
		var out, errb bytes.Buffer
		env := h.env(&out, &errb)
		open := env.Open
		env.Open = func(ctx context.Context) (*api.API, func() error, error) { opened++; return open(ctx) }
		env.Forward = forwardTo(h.dir, &forwarded)
		if code := Run(context.Background(), append([]string{"search"}, args...), env); code != 0 {
			t.Fatalf("search %v: %d %s", args, code, errb.String())
		}
		return out.String()
	}
	deadline := time.Now().Add(30 * time.Second)
	// serve's watcher answers once its first full reconcile is done. The wait asks for what no
	// memory holds: every search that finds a memory counts a recall, and a memory recalled
	// more than once ranks higher, so waiting with "tea" (more rounds on a loaded machine) made
	// the compared ranking differ from the one taken before.
	for forwarded == 0 {
		if time.Now().After(deadline) {
			t.Fatal("serve never answered a forwarded search")
		}
		search("zzqxnothingmatches")
		time.Sleep(50 * time.Millisecond)
	}
	// A reindex leaves the vectors to the process that watches the home: serve embeds them in
	// the background, and a local search taken before they were in ranked without them (the
	// forwarded one, after, with some), which failed once in a loaded run. Both now search the
	// same index once serve has embedded every memory.
	deadline = time.Now().Add(60 * time.Second)
	for {
		var st struct {
			Progress struct{ Done, Total int } `json:"progress"`
		}
		if err := json.Unmarshal([]byte(h.ok("embeddings", "status", "--json")), &st); err != nil {
			t.Fatal(err)
		}
		if st.Progress.Total > 0 && st.Progress.Done == st.Progress.Total {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve never embedded the memories: %+v", st.Progress)
		}
		time.Sleep(50 * time.Millisecond)
	}
	local := h.ok("search", "tea", "--json") // opens the home here, beside serve
	forwarded, opened = 0, 0
	if got := search("tea", "--json"); ranking(t, got) != ranking(t, local) {
		t.Fatalf("forwarded ranking differs from a local open:\nforwarded %s\nlocal %s", got, local)
	}
	want := handEdits(t, h.dir, "b")
	checkSearches(t, "serve running", func(q string) string { return search(q) }, want)
	// Only read-only methods go over the socket: a write is refused there (and runs here).
	if _, _, err := memory.ForwardCall(context.Background(), h.dir, "memory.delete", api.RefParams{Slug: "tea-time", Scope: api.ScopeGlobal}); !errors.Is(err, memory.ErrNotForwarded) {
		t.Fatalf("a write was taken over the socket: %v", err)
	}
	if opened != 0 || forwarded != 2*(1+len(want)) { // app.info, then the search
		t.Fatalf("with serve running: %d forwarded, %d opened the home", forwarded, opened)
	}

	if err := serve.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = serve.Wait()
	ref := filepath.Join(h.dir, "memory", "global", "reference")
	editInPlace(t, filepath.Join(ref, "edited-b.md"), "xylophone", "vibraphon")
	if err := os.Remove(filepath.Join(ref, "moved-b.md")); err != nil {
		t.Fatal(err)
	}
	forwarded, opened = 0, 0
	checkSearches(t, "serve killed", func(q string) string { return search(q) },
		map[string]string{"vibraphon": "edited-b", "quokkarenamedb": ""})
	if forwarded != 0 || opened != 2 {
		t.Fatalf("after the kill: %d forwarded, %d opened", forwarded, opened)
	}
}

// With no process watching the home, nothing is forwarded: the CLI opens the home.
func TestForwardWithoutWatcher(t *testing.T) {
	h := newHome(t)
	h.ok("reindex")
	_, _, err := memory.ForwardCall(context.Background(), h.dir, "memory.search", api.SearchParams{Query: "x"})
	if !errors.Is(err, memory.ErrNotForwarded) {
		t.Fatalf("no watcher: %v", err)
	}
}

// ranking is a search's --json output as its order of ids with each score to four significant
// digits: a memory's score decays with the minutes since it was written, so the two searches
// compared (seconds apart on a loaded machine) differed in their last digits once.
func ranking(t *testing.T, out string) string {
	t.Helper()
	var hits []struct {
		ID    string  `json:"id"`
		Score float64 `json:"score"`
	}
	if err := json.Unmarshal([]byte(out), &hits); err != nil {
		t.Fatalf("search --json: %v\n%s", err, out)
	}
	if len(hits) == 0 {
		t.Fatalf("search --json found nothing: %s", out)
	}
	var b strings.Builder
	for _, h := range hits {
		fmt.Fprintf(&b, "%s %.4g\n", h.ID, h.Score)
	}
	return b.String()
}
