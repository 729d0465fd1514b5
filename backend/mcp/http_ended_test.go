package mcp_test

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"engram/backend/mcp"
)

// send makes a request of method (GET or DELETE) naming session h's id, returning its status and body.
func (e *httpEnv) send(t *testing.T, method string, h map[string]string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, e.url, nil)
	req.Header.Set("Authorization", "Bearer "+e.token)
	req.Header.Set("Mcp-Session-Id", h["Mcp-Session-Id"])
	if method == http.MethodGet {
		req.Header.Set("Accept", "text/event-stream")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode == 200 && method == http.MethodGet {
		return 200, "" // the event stream stays open
	}
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

// A session its client ended (DELETE) stays ended after Engram restarts, as the spec asks (a
// terminated session's id is answered 404, and its client initializes again): before, the
// ends were kept in memory only, so after a restart the ended id verified and was revived —
// every call of a client (or of whoever held the id) went on in a live session — and a DELETE
// of a session from before the restart was 404 while the next call revived that session.
// Sessions their clients did not end are still revived.
func TestHTTPEndedSessionsStayEnded(t *testing.T) {
	home := t.TempDir()
	e := newHTTP(t, home, mcp.Config{})
	addr := fmt.Sprintf("127.0.0.1:%d", e.srv.Port())
	const both = "application/json, text/event-stream"
	ended := initSessionAccepting(t, e, "alpha", both)
	later := initSessionAccepting(t, e, "alpha", both)
	live := initSessionAccepting(t, e, "alpha", "application/json")
	if code, body := e.send(t, http.MethodDelete, ended); code != http.StatusNoContent {
		t.Fatalf("DELETE: %d %s", code, body)
	}
	gone := func(e *httpEnv, what string, h map[string]string) {
		t.Helper()
		if code, _, body := e.rawPost(t, callBody(2, "memory_list", `{}`), h); code != 404 || !strings.Contains(body, "mcp_session_not_found") {
			t.Fatalf("%s: POST %d %s", what, code, body)
		}
		for _, m := range []string{http.MethodGet, http.MethodDelete} {
			if code, body := e.send(t, m, h); code != 404 || !strings.Contains(body, "mcp_session_not_found") {
				t.Fatalf("%s: %s %d %s", what, m, code, body)
			}
		}
	}
	gone(e, "ended in this process", ended)

	for round := range 2 {
		e.stop()
		e = newHTTPAt(t, home, mcp.Config{}, addr)
		gone(e, fmt.Sprintf("ended before restart %d", round+1), ended)
		if round == 0 {
			// A session from before the restart that nothing has named since ends as a held one does.
			if code, body := e.send(t, http.MethodDelete, later); code != http.StatusNoContent {
				t.Fatalf("DELETE of a session from before the restart: %d %s", code, body)
			}
		}
		gone(e, fmt.Sprintf("ended after restart 1 (round %d)", round+1), later)
		if out, isErr := e.tool(t, callBody(3, "memory_list", `{}`), live); isErr {
			t.Fatalf("a session its client did not end is revived: %v", out)
		}
	}

	info, err := os.Stat(filepath.Join(home, mcp.EndedSessionsFile))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the ended sessions' file: %v %v", info, err)
	}
	data, _ := os.ReadFile(filepath.Join(home, mcp.EndedSessionsFile))
	if strings.Contains(string(data), ended["Mcp-Session-Id"]) || strings.Count(string(data), "\n") != 2 {
		t.Fatalf("the file keeps the two ends, not the ids: %q", data)
	}
}

// The ended sessions' file stays bounded: past twice MaxEnded lines it is rewritten with the
// latest MaxEnded, which a new process still finds ended; older ends are forgotten (their ids
// would be revived). A line that is not a fingerprint (an edit, a cut write) is passed over.
func TestEndedSessionsAreBounded(t *testing.T) {
	home := t.TempDir()
	has, add := mcp.EndedBook(home)
	n := 2*mcp.MaxEnded + 1
	id := func(i int) string { return fmt.Sprintf("session-%d", i) }
	for i := range n {
		add(id(i))
	}
	if !has(id(n - 1)) {
		t.Fatal("this process forgot the latest end")
	}
	path := filepath.Join(home, mcp.EndedSessionsFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(string(data), "\n"); lines != mcp.MaxEnded {
		t.Fatalf("the file holds %d lines, want %d", lines, mcp.MaxEnded)
	}
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	_, _ = f.WriteString("not a fingerprint\n0123")
	f.Close()
	has, add = mcp.EndedBook(home) // a new process
	for i, want := range map[int]bool{0: false, n - mcp.MaxEnded - 1: false, n - mcp.MaxEnded: true, n - 1: true} {
		if has(id(i)) != want {
			t.Fatalf("ended %d: %v, want %v", i, !want, want)
		}
	}
	add("one more")
	if has2, _ := mcp.EndedBook(home); !has2("one more") || !has2(id(n-1)) {
		t.Fatal("an end written after a damaged line is not found")
	}
}
