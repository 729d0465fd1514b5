package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/coder/websocket"

	"engram/backend/api"
	"engram/backend/i18n"
	"engram/backend/memory"
	"engram/backend/settings"
)

type fixture struct {
	srv   *Server
	store *memory.Store
	base  string // http://127.0.0.1:port
	ws    string // ws://127.0.0.1:port/ws
}

func start(t *testing.T, cfg Config) *fixture {
	t.Helper()
	return startWith(t, cfg, nil, nil)
}

// startWith starts a bridge whose api reports remote as the bridge runner; before is applied
// to the server before it starts (test hooks).
func startWith(t *testing.T, cfg Config, remote api.Remote, before func(*Server)) *fixture {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	home := t.TempDir()
	st, err := memory.Open(ctx, home, memory.Options{QuotaLimit: 100000})
	if err != nil {
		t.Fatal(err)
	}
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	set := settings.New(st, "en")
	hub := api.NewHub(st, set)
	a := api.New(ctx, api.Deps{Store: st, Catalog: cat, Settings: set, Events: hub, Remote: remote}, memory.ActorBridge)
	cfg.Home = home
	if cfg.Addr == "" {
		cfg.Addr = "127.0.0.1:0"
	}
	ui := fstest.MapFS{"index.html": {Data: []byte("<!doctype html><title>Engram</title>")}}
	srv, err := New(cfg, a, hub, ui)
	if err != nil {
		t.Fatal(err)
	}
	if before != nil {
		before(srv)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		sctx, c := context.WithTimeout(context.Background(), 3*time.Second)
		defer c()
		srv.Stop(sctx)
		cancel()
		st.Close()
	})
	p := strconv.Itoa(srv.Port())
	return &fixture{srv: srv, store: st, base: "http://127.0.0.1:" + p, ws: "ws://127.0.0.1:" + p + "/ws"}
}

func (f *fixture) dial(t *testing.T, token string, hdr http.Header) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	u := f.ws
	if token != "" {
		u += "?token=" + token
	}
	opts := &websocket.DialOptions{HTTPHeader: hdr}
	if h := hdr.Get("Host"); h != "" {
		opts.Host = h
	}
	return websocket.Dial(ctx, u, opts)
}

func (f *fixture) mustDial(t *testing.T) *websocket.Conn {
	t.Helper()
	c, _, err := f.dial(t, f.srv.Token(), nil)
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadLimit(8 << 20)
	t.Cleanup(func() { c.CloseNow() })
	return c
}

type response struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Params json.RawMessage `json:"params"`
	Error  *struct {
		Code    int        `json:"code"`
		Message string     `json:"message"`
		Data    *api.Error `json:"data"`
	} `json:"error"`
}

// readMsg returns the next response, skipping event notifications (clients coming and going
// publish remote.changed to everyone).
func readMsg(t *testing.T, c *websocket.Conn) response {
	t.Helper()
	for {
		r := readAny(t, c)
		if r.Method != "event" {
			return r
		}
	}
}

func readAny(t *testing.T, c *websocket.Conn) response {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, data, err := c.Read(ctx)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	var r response
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("bad response %s: %v", data, err)
	}
	return r
}

// call sends one request and returns its response, skipping event notifications.
func call(t *testing.T, c *websocket.Conn, id int, method, params string) response {
	t.Helper()
	msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params)
	if err := c.Write(context.Background(), websocket.MessageText, []byte(msg)); err != nil {
		t.Fatal(err)
	}
	for {
		r := readMsg(t, c)
		if string(r.ID) != strconv.Itoa(id) {
			t.Fatalf("response id %s, want %d", r.ID, id)
		}
		return r
	}
}

func countMemories(t *testing.T, st *memory.Store) int {
	t.Helper()
	_, n, err := st.List(context.Background(), memory.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestHandshakeRefusals(t *testing.T) {
	f := start(t, Config{})
	p := strconv.Itoa(f.srv.Port())
	cases := []struct {
		name   string
		token  string
		header http.Header
		status int
		code   string
	}{
		{"no token", "", nil, 401, "bridge_unauthorized"},
		{"wrong token", strings.Repeat("0", 48), nil, 401, "bridge_unauthorized"},
		{"foreign origin", f.srv.Token(), http.Header{"Origin": {"https://evil.example"}}, 403, "bridge_bad_origin"},
		{"origin on another port", f.srv.Token(), http.Header{"Origin": {"http://127.0.0.1:1"}}, 403, "bridge_bad_origin"},
		{"rebinding host", f.srv.Token(), http.Header{"Host": {"attacker.example:" + p}}, 403, "bridge_bad_host"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, resp, err := f.dial(t, tc.token, tc.header)
			if err == nil {
				c.CloseNow()
				t.Fatal("handshake accepted")
			}
			if resp == nil || resp.StatusCode != tc.status {
				t.Fatalf("status %v, want %d", resp, tc.status)
			}
			var e api.Error
			if err := json.NewDecoder(resp.Body).Decode(&e); err != nil || e.Code != tc.code || e.Message == "" {
				t.Fatalf("body %+v (%v), want code %s", e, err, tc.code)
			}
		})
	}
	// A page on the bridge's own origin is welcome.
	c, _, err := f.dial(t, f.srv.Token(), http.Header{"Origin": {"http://localhost:" + p}})
	if err != nil {
		t.Fatalf("own origin refused: %v", err)
	}
	c.CloseNow()
	// A non-browser client may send the token as a Bearer header, the scheme in any case.
	for _, scheme := range []string{"Bearer ", "bearer ", "BEARER "} {
		c, _, err := f.dial(t, "", http.Header{"Authorization": {scheme + f.srv.Token()}})
		if err != nil {
			t.Fatalf("%q header refused: %v", scheme, err)
		}
		c.CloseNow()
	}
	// A plain GET tells a page why its socket closed: 401 for a refused token, and 426
	// (upgrade required) once the token is right.
	for tok, want := range map[string]int{"wrong": 401, f.srv.Token(): 426} {
		resp, err := http.Get(f.base + "/ws?token=" + tok)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Fatalf("GET /ws with token %q: %d, want %d", tok, resp.StatusCode, want)
		}
	}
	// Static pages also check Host.
	req, _ := http.NewRequest("GET", f.base+"/", nil)
	req.Host = "rebind.example:" + p
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 403 {
		t.Fatalf("UI with foreign Host: %d", resp.StatusCode)
	}
}

func TestRemoteBindNeedsFlag(t *testing.T) {
	ctx := context.Background()
	st, err := memory.Open(ctx, t.TempDir(), memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a := api.New(ctx, api.Deps{Store: st}, memory.ActorBridge)
	srv, err := New(Config{Addr: "0.0.0.0:0", Home: t.TempDir()}, a, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); !errors.Is(err, ErrRemoteNotAllowed) {
		t.Fatalf("want ErrRemoteNotAllowed, got %v", err)
	}
}

func TestProtocolErrorsAndRecovery(t *testing.T) {
	f := start(t, Config{})
	c := f.mustDial(t)
	send := func(s string) {
		if err := c.Write(context.Background(), websocket.MessageText, []byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name, msg string
		rpc       int
		code      string
	}{
		{"malformed json", `{"jsonrpc":"2.0","id":1,"method":`, rpcParseError, "bridge_parse_error"},
		{"not jsonrpc", `{"id":2,"method":"app.info"}`, rpcInvalidRequest, "bridge_invalid_request"},
		{"unknown method", `{"jsonrpc":"2.0","id":3,"method":"memory.dropAll","params":{}}`, rpcMethodNotFound, api.CodeUnknownMethod},
		{"bad params", `{"jsonrpc":"2.0","id":4,"method":"memory.list","params":{"limit":"lots"}}`, rpcInvalidParams, api.CodeInvalidParams},
		{"project without workdir", `{"jsonrpc":"2.0","id":5,"method":"memory.list","params":{"scope":"project"}}`, rpcInvalidParams, api.CodeWorkdirMissing},
		{"project write without workdir", `{"jsonrpc":"2.0","id":6,"method":"memory.write","params":{"scope":"project","type":"project","slug":"abc","title":"t","body":"b"}}`, rpcInvalidParams, api.CodeWorkdirMissing},
		{"go method name", `{"jsonrpc":"2.0","id":7,"method":"MemoryService.List","params":{}}`, rpcMethodNotFound, api.CodeUnknownMethod},
	}
	for _, tc := range cases {
		send(tc.msg)
		r := readMsg(t, c)
		if r.Error == nil || r.Error.Code != tc.rpc || r.Error.Data == nil || r.Error.Data.Code != tc.code || r.Error.Data.Message == "" {
			t.Errorf("%s: got %+v", tc.name, r.Error)
		}
	}
	// Binary frames are refused, the connection survives.
	if err := c.Write(context.Background(), websocket.MessageBinary, []byte{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	if r := readMsg(t, c); r.Error == nil || r.Error.Data.Code != "bridge_binary_message" {
		t.Fatalf("binary: %+v", r.Error)
	}
	// A well-behaved request still works on the same connection.
	if r := call(t, c, 8, "app.info", `{}`); r.Error != nil {
		t.Fatalf("app.info after errors: %+v", r.Error)
	}
	if n := countMemories(t, f.store); n != 0 {
		t.Fatalf("refused requests wrote %d memories", n)
	}
}

func TestOversizedFrameClosesOnlyThatClient(t *testing.T) {
	f := start(t, Config{})
	good := f.mustDial(t)
	bad := f.mustDial(t)
	big := `{"jsonrpc":"2.0","id":1,"method":"memory.write","params":{"scope":"global","type":"user","slug":"big","title":"t","body":"` + strings.Repeat("x", 1<<20+10) + `"}}`
	_ = bad.Write(context.Background(), websocket.MessageText, []byte(big))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var err error
	for err == nil {
		_, _, err = bad.Read(ctx)
	}
	if websocket.CloseStatus(err) != websocket.StatusMessageTooBig {
		t.Fatalf("want close 1009, got %v", err)
	}
	if r := call(t, good, 2, "app.info", `{}`); r.Error != nil {
		t.Fatalf("other client broken: %+v", r.Error)
	}
	if n := countMemories(t, f.store); n != 0 {
		t.Fatalf("oversized write landed: %d", n)
	}
}

func TestFloodIsRateLimited(t *testing.T) {
	f := start(t, Config{RatePerSec: 2, Burst: 10})
	flood := f.mustDial(t)
	const n = 10000
	limited := 0
	for i := 0; i < n; i++ {
		r := call(t, flood, i+1, "memory.write", fmt.Sprintf(`{"scope":"global","type":"user","slug":"flood-%05d","title":"t","body":"b"}`, i))
		if r.Error != nil {
			if r.Error.Code != rpcRateLimited || r.Error.Data == nil || r.Error.Data.Code != "bridge_rate_limited" {
				t.Fatalf("unexpected error %+v", r.Error)
			}
			limited++
		}
	}
	answered := n
	if limited == 0 {
		t.Fatalf("no request of %d was rate limited", n)
	}
	written := countMemories(t, f.store)
	if written != answered-limited {
		t.Fatalf("wrote %d memories for %d accepted requests", written, answered-limited)
	}
	// The server still serves a well-behaved client.
	other := f.mustDial(t)
	if r := call(t, other, 1, "memory.list", `{"limit":1}`); r.Error != nil {
		t.Fatalf("after flood: %+v", r.Error)
	}
}

// A client that stops reading is dropped once its queue is full; the others still get their
// answers and events. It failed once in a loaded run with "watcher: EOF": the watcher and the
// writer were dropped themselves. They heard every event of the 40 writes that fill the store
// in a queue of 4, so a writer goroutine held up by the load lost them as slow clients; and
// neither read while the stuck client was being dropped, so a drop that took past the ping
// interval (30 s) left their pings unanswered, and they were closed at the pong timeout. The
// store is now filled before they connect, their queue holds more than every event this test
// publishes, and pings are left out (TestQuietWebsocketPingPolicy has them): only the stuck
// client can fill its queue.
func TestEventsReachOtherClientsAndSlowClientsAreDropped(t *testing.T) {
	f := start(t, Config{SendQueue: 16, PingInterval: time.Hour})
	body := strings.Repeat("memory text ", 650)
	for i := 0; i < 40; i++ {
		if _, err := f.srv.api.Call("memory.write", json.RawMessage(fmt.Sprintf(`{"scope":"global","type":"reference","slug":"big-%03d","title":"t","body":%q}`, i, body))); err != nil {
			t.Fatalf("write: %v", err)
		}
	}
	writer := f.mustDial(t)
	watcher := f.mustDial(t)
	// A client that asks for large answers and never reads them: once the socket buffers
	// and its bounded queue are full it must be dropped, without holding anyone else back.
	stuck := f.mustDial(t)
	for i := 0; i < 120; i++ {
		msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"memory.export","params":{}}`, i)
		if stuck.Write(context.Background(), websocket.MessageText, []byte(msg)) != nil {
			break
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for len(f.srv.Clients()) != 2 {
		if time.Now().After(deadline) {
			t.Fatalf("stuck client not dropped: %d clients", len(f.srv.Clients()))
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The others still get answers and events.
	if r := call(t, writer, 100, "memory.write", `{"scope":"global","type":"user","slug":"after-drop","title":"t","body":"b"}`); r.Error != nil {
		t.Fatalf("write after drop: %+v", r.Error)
	}
	seen := false
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for !seen {
		_, data, err := watcher.Read(ctx)
		if err != nil {
			t.Fatalf("watcher: %v", err)
		}
		var r response
		_ = json.Unmarshal(data, &r)
		var ev struct {
			Name string `json:"name"`
			Data struct {
				IDs []string `json:"ids"`
			} `json:"data"`
		}
		_ = json.Unmarshal(r.Params, &ev)
		if r.Method == "event" && ev.Name == api.EventMemoryChanged {
			m, err := f.store.GetBySlug(context.Background(), memory.ScopeGlobal, "", "", "after-drop")
			seen = err == nil && len(ev.Data.IDs) == 1 && ev.Data.IDs[0] == m.ID
		}
	}
}

func TestUnsubscribeStopsEvents(t *testing.T) {
	f := start(t, Config{})
	c := f.mustDial(t)
	if r := call(t, c, 1, "rpc.unsubscribe", `{}`); r.Error != nil {
		t.Fatal(r.Error)
	}
	// Another client writes; the hub publishes before that call returns, so an event for c
	// would be queued ahead of c's own next answer.
	other := f.mustDial(t)
	if r := call(t, other, 2, "memory.write", `{"scope":"global","type":"user","slug":"quiet","title":"t","body":"b"}`); r.Error != nil {
		t.Fatal(r.Error)
	}
	if err := c.Write(context.Background(), websocket.MessageText, []byte(`{"jsonrpc":"2.0","id":3,"method":"app.info","params":{}}`)); err != nil {
		t.Fatal(err)
	}
	if r := readAny(t, c); r.Method == "event" {
		t.Fatalf("event delivered after unsubscribe: %s", r.Params)
	}
}
func TestAllowListIsTheAPITable(t *testing.T) {
	f := start(t, Config{})
	c := f.mustDial(t)
	r := call(t, c, 1, "rpc.methods", `{}`)
	var got struct{ Methods []string }
	if err := json.Unmarshal(r.Result, &got); err != nil {
		t.Fatal(err)
	}
	want := f.srv.api.Methods()
	if len(got.Methods) != len(want) {
		t.Fatalf("%d methods, table has %d", len(got.Methods), len(want))
	}
	for i, m := range want {
		if got.Methods[i] != m.Name {
			t.Fatalf("method %d: %s != %s", i, got.Methods[i], m.Name)
		}
	}
}

func TestBatchPaysForEveryCall(t *testing.T) {
	f := start(t, Config{RatePerSec: 0.001, Burst: 10})
	c := f.mustDial(t)
	var calls []string
	for i := 0; i < 20; i++ {
		calls = append(calls, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"app.info","params":{}}`, i+1))
	}
	if err := c.Write(context.Background(), websocket.MessageText, []byte("["+strings.Join(calls, ",")+"]")); err != nil {
		t.Fatal(err)
	}
	r := readMsg(t, c)
	if r.Error == nil || r.Error.Code != rpcRateLimited {
		t.Fatalf("a 20-call batch on a 10-token budget went through: %+v", r)
	}
}

func TestRegenerateRevokesOldConnections(t *testing.T) {
	f := start(t, Config{})
	old := f.mustDial(t)
	if _, err := f.srv.RegenerateToken(); err != nil {
		t.Fatal(err)
	}
	if err := readUntilClosed(old); errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("old connection still open after the regenerate: %v", err)
	}
	if _, resp, err := f.dial(t, "", nil); err == nil || resp.StatusCode != 401 {
		t.Fatal("dial without token accepted")
	}
	fresh := f.mustDial(t)
	if r := call(t, fresh, 1, "app.info", `{}`); r.Error != nil {
		t.Fatalf("new token refused: %+v", r.Error)
	}
}

func TestUnsubscribeSomeKeepsOthers(t *testing.T) {
	f := start(t, Config{})
	c := f.mustDial(t)
	if r := call(t, c, 1, "rpc.unsubscribe", `{"events":["memory.changed"]}`); r.Error != nil {
		t.Fatal(r.Error)
	}
	// Write through another client so this one's stream holds only events.
	other := f.mustDial(t)
	if r := call(t, other, 2, "memory.write", `{"scope":"global","type":"user","slug":"quiet-one","title":"t","body":"b"}`); r.Error != nil {
		t.Fatal(r.Error)
	}
	if r := call(t, other, 3, "settings.update", `{"theme":"dark"}`); r.Error != nil {
		t.Fatal(r.Error)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("no settings.changed after unsubscribing memory.changed only: %v", err)
		}
		var r response
		_ = json.Unmarshal(data, &r)
		var ev eventParams
		_ = json.Unmarshal(r.Params, &ev)
		if r.Method == "event" && ev.Name == api.EventMemoryChanged {
			t.Fatal("memory.changed delivered after unsubscribe")
		}
		if r.Method == "event" && ev.Name == api.EventSettingsChanged {
			return
		}
	}
}

// Only events that exist can be subscribed to or unsubscribed from: the per-connection filter
// kept every name it was sent, and made-up names by the megabyte grew it without bound. The
// refusal is a translated invalid-params error naming the event; known names still work.
func TestSubscribeRefusesUnknownEvents(t *testing.T) {
	f := start(t, Config{})
	c := f.mustDial(t)
	for i, method := range []string{"rpc.subscribe", "rpc.unsubscribe"} {
		r := call(t, c, i+1, method, `{"events":["memory.changed","made.up.0001"]}`)
		if r.Error == nil || r.Error.Data == nil || r.Error.Data.Code != api.CodeInvalidParams ||
			!strings.Contains(r.Error.Data.Message, "made.up.0001") {
			t.Fatalf("%s with an unknown event: %+v", method, r.Error)
		}
	}
	if r := call(t, c, 3, "rpc.subscribe", `{"events":["memory.changed","settings.changed"]}`); r.Error != nil {
		t.Fatalf("known events refused: %+v", r.Error)
	}
}

// Another process on the home replacing the token file (`engram bridge token --regenerate`
// while serve runs) revokes the old token here too: the running server took the old token
// and refused the new one until restarted.
func TestTokenFileReplacedByAnotherProcess(t *testing.T) {
	f := start(t, Config{})
	oldTok := f.srv.Token()
	old := f.mustDial(t)
	newTok, err := RegenerateToken(f.srv.cfg.Home) // what the CLI does, in its own process
	if err != nil {
		t.Fatal(err)
	}
	if _, resp, err := f.dial(t, oldTok, nil); err == nil || resp.StatusCode != 401 {
		t.Fatal("the old token still opens connections after the file was replaced")
	}
	fresh, _, err := f.dial(t, newTok, nil)
	if err != nil {
		t.Fatalf("the new token is refused: %v", err)
	}
	if r := call(t, fresh, 1, "app.info", `{}`); r.Error != nil {
		t.Fatalf("new token's call refused: %+v", r.Error)
	}
	if err := readUntilClosed(old); errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a connection made with the old token is still open: %v", err)
	}
}

// A token file replaced while a connection's handshake was answered but its client not yet
// registered: the drop that the change sets off cannot see that client, yet it was made with
// the old token and must close too (seen in a loaded CI run, where the gap is wide).
func TestTokenReplacedDuringHandshake(t *testing.T) {
	var once sync.Once
	f := startWith(t, Config{}, nil, func(s *Server) {
		s.beforeRegister = func() {
			once.Do(func() {
				// What a concurrent handshake's Token does on noticing a replaced file, minus
				// its drop of the clients registered so far (this one is not yet).
				tok, err := RegenerateToken(s.cfg.Home)
				if err != nil {
					t.Error(err)
				}
				s.token.Store(tok)
			})
		}
	})
	if err := readUntilClosed(f.mustDial(t)); errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a connection accepted with the old token is still open: %v", err)
	}
}

// readUntilClosed reads c until the server closes it (with 1008 when the close frame wins the
// race, else the socket just ends) and returns the error that ended it:
// context.DeadlineExceeded when it was still open after 10 s.
func readUntilClosed(c *websocket.Conn) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		if _, _, err := c.Read(ctx); err != nil {
			return err
		}
	}
}
