package bridge

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"engram/backend/api"
)

// Every Origin a browser could send for a page that is not this bridge is refused with a
// translated 403, at the websocket and at /mcp; only the serialized origin of the bridge's own
// page (scheme://host:port, nothing else) is let through.
func TestOriginSpellings(t *testing.T) {
	f := start(t, Config{MCP: mcpStub})
	p := strconv.Itoa(f.srv.Port())
	refused := []string{
		"http://evil@127.0.0.1:" + p,
		"http://evil:pw@localhost:" + p,
		"http://@127.0.0.1:" + p,
		"http://127.0.0.1:" + p + "@evil.example",
		"http://127.0.0.1:" + p + "/",
		"http://127.0.0.1:" + p + "/ws",
		"http://127.0.0.1:" + p + "?x=1",
		"http://127.0.0.1:" + p + "#f",
		"http://127.0.0.1:" + p + "?",
		"http://127.0.0.1:" + p + "#",
		"null",
		"file://",
		"ws://127.0.0.1:" + p,
		"http:127.0.0.1:" + p,
		"http:///127.0.0.1:" + p,
		"//127.0.0.1:" + p,
		"127.0.0.1:" + p,
		"http://localhost.:" + p,
		"http://127.0.0.1.:" + p,
		"http://0.0.0.0:" + p,
		"http://2130706433:" + p,
		"http://0x7f.1:" + p,
		"http://0177.0.0.1:" + p,
		"http://127.1:" + p,
		"http://[::ffff:127.0.0.1]:" + p,
		"http://[0:0:0:0:0:0:0:1]:" + p,
		"http://127.0.0.1",
		"http://127.0.0.1:",
		"http://127.0.0.1:0" + p,
		"http://127.0.0.1:1",
		"http://evil.example",
		"http://127.0.0.1%3A" + p,
		"http://127.0.0.1:" + p + ", http://evil.example",
	}
	for _, o := range refused {
		t.Run("refused "+o, func(t *testing.T) {
			c, resp, err := f.dial(t, f.srv.Token(), http.Header{"Origin": {o}})
			if err == nil {
				c.CloseNow()
				t.Fatalf("websocket with Origin %q accepted", o)
			}
			assertRefusal(t, resp, 403, "bridge_bad_origin")
			if st, body := f.mcpDo(t, "POST", map[string]string{"Origin": o, "Content-Type": "application/json"}); st != 403 {
				t.Fatalf("/mcp with Origin %q: %d %s", o, st, body)
			}
		})
	}
	allowed := []string{
		"http://127.0.0.1:" + p, "http://localhost:" + p, "http://[::1]:" + p,
		"HTTP://LOCALHOST:" + p, "http://LocalHost:" + p, "https://127.0.0.1:" + p,
	}
	for _, o := range allowed {
		t.Run("allowed "+o, func(t *testing.T) {
			c, _, err := f.dial(t, f.srv.Token(), http.Header{"Origin": {o}})
			if err != nil {
				t.Fatalf("own origin %q refused: %v", o, err)
			}
			c.CloseNow()
		})
	}
}

func assertRefusal(t *testing.T, resp *http.Response, status int, code string) {
	t.Helper()
	if resp == nil || resp.StatusCode != status {
		t.Fatalf("status %v, want %d", resp, status)
	}
	var e api.Error
	if err := json.NewDecoder(resp.Body).Decode(&e); err != nil || e.Code != code || e.Message == "" {
		t.Fatalf("body %+v (%v), want code %s", e, err, code)
	}
}

// The Host of every request must name this bridge as the browser spells it: a name that
// resolves here but is not 127.0.0.1, localhost or [::1] on the bridge's port (a rebinding
// domain, a trailing dot, a numeric or shortened address, another port, no port) is refused
// with a translated 403 before any route answers.
func TestHostSpellings(t *testing.T) {
	f := start(t, Config{MCP: mcpStub})
	p := strconv.Itoa(f.srv.Port())
	refused := []string{
		"evil.example:" + p, "evil.example", "localhost.:" + p, "127.0.0.1.:" + p,
		"0.0.0.0:" + p, "2130706433:" + p, "0x7f.1:" + p, "0177.0.0.1:" + p, "127.1:" + p,
		"[::ffff:127.0.0.1]:" + p, "[0:0:0:0:0:0:0:1]:" + p, "127.0.0.1", "localhost",
		"127.0.0.1:", "127.0.0.1:0" + p, "127.0.0.1:1", "evil@127.0.0.1:" + p,
		"127.0.0.1:" + p + "@evil.example", "localhost:" + p + ".evil.example",
	}
	for _, h := range refused {
		t.Run("refused "+h, func(t *testing.T) {
			for _, path := range []string{"/", "/ws?token=" + f.srv.Token(), "/healthz", "/mcp"} {
				req, _ := http.NewRequest("GET", f.base+path, nil)
				req.Host = h
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				if resp.StatusCode == 400 {
					resp.Body.Close() // net/http itself refuses a malformed Host
					continue
				}
				assertRefusal(t, resp, 403, "bridge_bad_host")
				resp.Body.Close()
			}
			c, resp, err := f.dial(t, f.srv.Token(), http.Header{"Host": {h}})
			if err == nil {
				c.CloseNow()
				t.Fatalf("websocket with Host %q accepted", h)
			}
			if resp != nil && resp.StatusCode != 400 {
				assertRefusal(t, resp, 403, "bridge_bad_host")
			}
		})
	}
	for _, h := range []string{"127.0.0.1:" + p, "localhost:" + p, "LOCALHOST:" + p, "[::1]:" + p} {
		c, _, err := f.dial(t, f.srv.Token(), http.Header{"Host": {h}})
		if err != nil {
			t.Fatalf("own Host %q refused: %v", h, err)
		}
		c.CloseNow()
	}
}

// Only the exact token opens the websocket: a prefix, the token with more after it, another
// case of its hex digits or padding is refused; a wrong ?token= is not rescued by a right
// Bearer header; /mcp never reads a token from the URL.
func TestTokenSpellings(t *testing.T) {
	f := start(t, Config{MCP: mcpStub})
	tok := f.srv.Token()
	for name, bad := range map[string]string{
		"prefix": tok[:len(tok)-1], "longer": tok + "0", "upper case": strings.ToUpper(tok),
		"padded": "%20" + tok, "half": tok[:len(tok)/2],
	} {
		t.Run(name, func(t *testing.T) {
			c, resp, err := f.dial(t, bad, nil)
			if err == nil {
				c.CloseNow()
				t.Fatal("handshake accepted")
			}
			assertRefusal(t, resp, 401, "bridge_unauthorized")
		})
	}
	c, resp, err := f.dial(t, "wrong", http.Header{"Authorization": {"Bearer " + tok}})
	if err == nil {
		c.CloseNow()
		t.Fatal("a wrong query token was rescued by the header")
	}
	assertRefusal(t, resp, 401, "bridge_unauthorized")
	// MCP takes the token only as a Bearer header, and its refusal says so (the browser's
	// "copy the URL from engram serve" sent an MCP client to a URL whose token is never sent).
	for name, h := range map[string]string{"in the URL": "", "wrong": "Bearer " + tok[:len(tok)-1], "no scheme": tok} {
		req, _ := http.NewRequest("POST", f.base+"/mcp?token="+tok, strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		if h != "" {
			req.Header.Set("Authorization", h)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e api.Error
		_ = json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != 401 || e.Code != "mcp_unauthorized" || !strings.Contains(e.Message, "Authorization: Bearer") {
			t.Fatalf("MCP token %s: %d %+v", name, resp.StatusCode, e)
		}
	}
}

// A message split into many small frames is bounded as a whole: past MaxMessage the sender is
// closed with 1009 and nothing it sent is done; the other clients are served on.
func TestFragmentedOversizedMessage(t *testing.T) {
	f := start(t, Config{MaxMessage: 64 << 10})
	good := f.mustDial(t)
	bad := f.mustDial(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	w, err := bad.Writer(ctx, websocket.MessageText)
	if err != nil {
		t.Fatal(err)
	}
	// Writes may fail once the bridge has closed the socket; what matters is what it did.
	_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"memory.write","params":{"scope":"global","type":"user","slug":"big","title":"t","body":"`))
	for i := 0; i < 64; i++ {
		if _, err := w.Write([]byte(strings.Repeat("x", 4<<10))); err != nil {
			break
		}
	}
	_, _ = w.Write([]byte(`"}}`))
	_ = w.Close()
	// The bridge closes the connection: with 1009 when the close frame arrives before the
	// reset of a socket closed with the sender's bytes unread (then the status is lost).
	for err == nil {
		_, _, err = bad.Read(ctx)
	}
	if ctx.Err() != nil {
		t.Fatalf("the oversized sender was not closed: %v", err)
	}
	if st := websocket.CloseStatus(err); st != -1 && st != websocket.StatusMessageTooBig {
		t.Fatalf("want close 1009, got %v", err)
	}
	if r := call(t, good, 2, "app.info", `{}`); r.Error != nil {
		t.Fatalf("other client broken: %+v", r.Error)
	}
	if n := countMemories(t, f.store); n != 0 {
		t.Fatalf("oversized write landed: %d", n)
	}
}

// With --allow-remote any IP literal on the bridge's port is a name of it in Host (a
// rebinding needs a domain), but an Origin is the page's own address: a page served by
// another machine on the same port number must not open a socket here. The bridge's own page,
// reached through an address of this machine, still does.
func TestRemoteOriginMustBeThisBridge(t *testing.T) {
	f := start(t, Config{AllowRemote: true})
	p := strconv.Itoa(f.srv.Port())
	for _, o := range []string{"http://10.9.8.7:" + p, "http://[2001:db8::1]:" + p, "http://192.168.1.66:" + p} {
		c, resp, err := f.dial(t, f.srv.Token(), http.Header{"Origin": {o}})
		if err == nil {
			c.CloseNow()
			t.Fatalf("Origin %s of another machine accepted", o)
		}
		assertRefusal(t, resp, 403, "bridge_bad_origin")
	}
	// The page was loaded from 10.9.8.7 (this machine behind that address) and calls back there.
	c, _, err := f.dial(t, f.srv.Token(), http.Header{"Host": {"10.9.8.7:" + p}, "Origin": {"http://10.9.8.7:" + p}})
	if err != nil {
		t.Fatalf("same-origin page on an IP literal refused: %v", err)
	}
	c.CloseNow()
	for _, o := range []string{"http://127.0.0.1:" + p, "http://localhost:" + p} {
		c, _, err := f.dial(t, f.srv.Token(), http.Header{"Origin": {o}})
		if err != nil {
			t.Fatalf("own Origin %s refused: %v", o, err)
		}
		c.CloseNow()
	}
}
