package bridge

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"engram/backend/api"
)

// Token stat'ed the token file on every websocket message, every event sent to every client
// and every ping. Calls now read it from memory and look at the file once per tick of
// watchToken (every tokenCheckEvery): a hundred calls make no look but one a tick, fifty after
// a tick one (that a look after the tick sees a replaced file is
// TestRegenerateFromAnotherProcessRevokesWithoutANewConnection's).
func TestTokenLooksAtTheFileOncePerInterval(t *testing.T) {
	var looks atomic.Int64
	// No ping-time look (PingInterval): only the calls look at the file here.
	f := startWith(t, Config{PingInterval: time.Hour}, nil, func(s *Server) { s.onTokenStat = func() { looks.Add(1) } })
	c := f.mustDial(t)
	for i := 1; i <= 100; i++ {
		if r := call(t, c, i, "app.info", `{}`); r.Error != nil {
			t.Fatal(r.Error)
		}
	}
	// watchToken's ticks (one a second) may come between: each lets one call look.
	if n := looks.Load(); n > f.srv.tokenTick.Load() {
		t.Fatalf("100 calls looked at the token file %d times over %d ticks", n, f.srv.tokenTick.Load())
	}
	before := looks.Load()
	mine := f.srv.tokenTick.Add(1)
	for i := 101; i <= 150; i++ {
		if r := call(t, c, i, "app.info", `{}`); r.Error != nil {
			t.Fatal(r.Error)
		}
	}
	if n, ticks := looks.Load()-before, f.srv.tokenTick.Load()-mine; n < 1 || n > 1+ticks {
		t.Fatalf("50 calls after a tick looked at the token file %d times, want 1 (and one per tick since: %d)", n, ticks)
	}
}

// A token a regenerate replaced got the words of a wrong one ("missing or wrong … copy the
// URL"), so the person retyped the token they had. It is told the token was regenerated and
// where the new one is, on the websocket (the web UI's login card shows the probe's answer),
// on /mcp, for the last retiredKept tokens, whichever process regenerated; a token that never
// was this bridge's still gets the usual refusal.
func TestReplacedTokenIsToldItWasRegenerated(t *testing.T) {
	f := start(t, Config{MCP: http.NotFoundHandler()}) // any answer past the guard is a failure
	home := f.srv.cfg.Home
	var old []string
	for i := 0; i < 4; i++ {
		old = append(old, f.srv.Token())
		var err error
		if i%2 == 0 {
			_, err = RegenerateToken(home) // the CLI, in its own process
		} else {
			_, err = f.srv.RegenerateToken() // the desktop window
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	never := strings.Repeat("ab", 24)
	cases := []struct {
		name, token, ws, mcp string
	}{
		{"the token just replaced", old[3], "bridge_token_regenerated", "mcp_token_regenerated"},
		{"the one before", old[2], "bridge_token_regenerated", "mcp_token_regenerated"},
		{"the third back", old[1], "bridge_token_regenerated", "mcp_token_regenerated"},
		{"older than the list keeps", old[0], "bridge_unauthorized", "mcp_unauthorized"},
		{"never this bridge's", never, "bridge_unauthorized", "mcp_unauthorized"},
		{"a prefix of a replaced one", old[3][:20], "bridge_unauthorized", "mcp_unauthorized"},
		{"none", "", "bridge_unauthorized", "mcp_unauthorized"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The web UI's probe: a plain GET of the websocket URL.
			resp, err := http.Get(f.base + "/ws?token=" + tc.token)
			if err != nil {
				t.Fatal(err)
			}
			expectRefusal(t, resp, tc.ws)
			// A websocket client sending it as a Bearer header.
			_, resp, err = f.dial(t, "", http.Header{"Authorization": {"Bearer " + tc.token}})
			if err == nil || resp == nil {
				t.Fatal("handshake accepted")
			}
			expectRefusal(t, resp, tc.ws)
			req, _ := http.NewRequest("POST", f.base+"/mcp", bytes.NewReader([]byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+tc.token)
			if resp, err = http.DefaultClient.Do(req); err != nil {
				t.Fatal(err)
			}
			expectRefusal(t, resp, tc.mcp)
		})
	}
	data, err := os.ReadFile(filepath.Join(home, RetiredFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range old {
		if bytes.Contains(data, []byte(tok)) {
			t.Fatalf("%s holds a token itself: %s", RetiredFile, data)
		}
	}
	if fi, err := os.Stat(filepath.Join(home, RetiredFile)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("%s: %v %v, want mode 0600", RetiredFile, fi, err)
	}
}

// expectRefusal checks resp is a 401 with the translated error code.
func expectRefusal(t *testing.T, resp *http.Response, code string) {
	t.Helper()
	defer resp.Body.Close()
	var e api.Error
	if err := json.NewDecoder(resp.Body).Decode(&e); err != nil || resp.StatusCode != 401 || e.Code != code || e.Message == "" || strings.HasPrefix(e.Message, "error.") {
		t.Fatalf("%d %+v (%v), want 401 %s", resp.StatusCode, e, err, code)
	}
}

// BenchmarkTokenOfAMessage is what each websocket message, event and ping pays for the token:
// liveToken (from memory, a look at the file once a second) against Token (a look each time,
// which every message paid before).
func BenchmarkTokenOfAMessage(b *testing.B) {
	home := b.TempDir()
	s, err := New(Config{Home: home}, nil, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("liveToken", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			_ = s.liveToken()
		}
	})
	b.Run("Token (stat)", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			_ = s.Token()
		}
	})
}

// `engram serve` printed only the URL it started with and the window's Remote access kept the
// old token when the CLI regenerated it: the bridge now says when it takes up a token another
// process wrote (Config.OnTokenChange), with the new token in place.
func TestTokenChangeIsAnnounced(t *testing.T) {
	heard := make(chan string, 4)
	var f *fixture
	f = start(t, Config{OnTokenChange: func() { heard <- f.srv.Token() }})
	if _, err := f.srv.RegenerateToken(); err != nil {
		t.Fatal(err)
	}
	tok, err := RegenerateToken(f.srv.cfg.Home) // the CLI
	if err != nil {
		t.Fatal(err)
	}
	f.srv.Token() // a new connection looks at the file
	select {
	case got := <-heard:
		if got != tok {
			t.Fatalf("announced with %q, want the new token", got)
		}
	case <-time.After(20 * time.Second): // bounds a failure only
		t.Fatal("the token another process wrote was taken up without a word")
	}
}
