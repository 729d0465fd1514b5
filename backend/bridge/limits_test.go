package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"engram/backend/api"
	"engram/backend/memory"
)

// waitFor polls a state of the server until it holds; the deadline only bounds a failure.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestIdleKeepAliveIsClosed(t *testing.T) {
	f := start(t, Config{IdleTimeout: 200 * time.Millisecond, ReadHeaderTimeout: 200 * time.Millisecond})
	host := strings.TrimPrefix(f.base, "http://")
	cases := []struct {
		name, request string
		answered      bool
	}{
		{"idle after a request", rawGet(host, "/healthz", ""), true},
		{"headers never finished", "GET /healthz HTTP/1.1\r\nHost: " + host + "\r\n", false},
		{"nothing sent", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := dialRaw(t, host)
			c.send(t, tc.request)
			if tc.answered {
				if code, _ := c.answer(t); code != 200 {
					t.Fatalf("first request: %d", code)
				}
			}
			if !c.closedByServer() {
				t.Fatal("the server kept the idle connection open")
			}
		})
	}
	waitFor(t, "every slot back", func() bool { return f.srv.openConns() == 0 })
}

func TestQuietWebsocketPingPolicy(t *testing.T) {
	var mu sync.Mutex
	pongs := map[int64]int{}
	failed := map[int64]bool{}
	// Pings come often; the pong limit is generous, since only the dead peer ever waits it out
	// and a busy machine may take a while to schedule the idle UI's reader.
	f := startWith(t, Config{PingInterval: 30 * time.Millisecond, PongTimeout: 4 * time.Second}, nil, func(s *Server) {
		s.onPing = func(id int64, err error) {
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				failed[id] = true
			} else {
				pongs[id]++
			}
		}
	})
	// An idle UI: sends nothing, but its socket is read (a browser always is), so pings get
	// answered.
	ui := f.mustDial(t)
	msgs := make(chan response, 16)
	go func() {
		for {
			_, data, err := ui.Read(context.Background())
			if err != nil {
				close(msgs)
				return
			}
			var r response
			_ = json.Unmarshal(data, &r)
			if r.Method != "event" {
				msgs <- r
			}
		}
	}()
	waitFor(t, "the UI registered", func() bool { return len(f.srv.Clients()) == 1 })
	uiID := f.srv.Clients()[0].ID
	// A peer that holds the socket and never reads: its pings go unanswered.
	dead := f.mustDial(t)
	waitFor(t, "the dead peer registered", func() bool { return len(f.srv.Clients()) == 2 })
	deadID := f.srv.Clients()[1].ID
	waitFor(t, "the dead peer's ping to fail", func() bool { mu.Lock(); defer mu.Unlock(); return failed[deadID] })
	waitFor(t, "the dead peer to be dropped", func() bool { return len(f.srv.Clients()) == 1 })
	waitFor(t, "three answered pings on the idle UI", func() bool { mu.Lock(); defer mu.Unlock(); return pongs[uiID] >= 3 })
	mu.Lock()
	uiFailed := failed[uiID]
	mu.Unlock()
	if uiFailed || f.srv.Clients()[0].ID != uiID {
		t.Fatalf("the idle UI was dropped: %+v", f.srv.Clients())
	}
	if err := ui.Write(context.Background(), websocket.MessageText, []byte(`{"jsonrpc":"2.0","id":1,"method":"app.info"}`)); err != nil {
		t.Fatal(err)
	}
	if r, ok := <-msgs; !ok || r.Error != nil || string(r.ID) != "1" {
		t.Fatalf("the idle UI no longer answered: %+v %v", r, ok)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var err error
	for err == nil { // events queued before the drop come first
		_, _, err = dead.Read(ctx)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("the dead peer is still connected: %v", err)
	}
}

func TestConnectionCap(t *testing.T) {
	f := start(t, Config{MaxConns: 2})
	a := f.mustDial(t)
	b := f.mustDial(t)
	plain := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := plain.Get(f.base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	var e api.Error
	derr := json.NewDecoder(resp.Body).Decode(&e)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || derr != nil || e.Code != "bridge_too_many_connections" ||
		!strings.Contains(e.Message, "2") || resp.Header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Fatalf("over the cap: %d %+v %v", resp.StatusCode, e, derr)
	}
	if c, resp, err := f.dial(t, f.srv.Token(), nil); err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		if c != nil {
			c.CloseNow()
		}
		t.Fatalf("websocket over the cap: %v %v", resp, err)
	}
	// Both held connections still work.
	if r := call(t, b, 1, "app.info", `{}`); r.Error != nil {
		t.Fatal(r.Error)
	}
	// A slot frees when a connection closes; then a new one gets in.
	if err := a.Close(websocket.StatusNormalClosure, ""); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a free slot", func() bool { return f.srv.openConns() < 2 })
	c := f.mustDial(t)
	if r := call(t, c, 2, "app.info", `{}`); r.Error != nil {
		t.Fatal(r.Error)
	}
	if r := call(t, b, 3, "app.info", `{}`); r.Error != nil {
		t.Fatal(r.Error)
	}
}

func TestOnlyStringOrNumberIDsAreEchoed(t *testing.T) {
	f := start(t, Config{})
	c := f.mustDial(t)
	cases := []struct {
		id, want string
		ok       bool
	}{
		{`{"a":1}`, "null", false},
		{`[1,2]`, "null", false},
		{`true`, "null", false},
		{`false`, "null", false},
		{`"abc"`, `"abc"`, true},
		{`7`, `7`, true},
		{`-3.5`, `-3.5`, true},
		{`null`, `null`, true},
	}
	for _, tc := range cases {
		msg := `{"jsonrpc":"2.0","id":` + tc.id + `,"method":"app.info","params":{}}`
		if err := c.Write(context.Background(), websocket.MessageText, []byte(msg)); err != nil {
			t.Fatal(err)
		}
		r := readMsg(t, c)
		if string(r.ID) != tc.want || (r.Error == nil) != tc.ok {
			t.Fatalf("id %s: got id %s error %+v", tc.id, r.ID, r.Error)
		}
		if !tc.ok && (r.Error.Code != rpcInvalidRequest || r.Error.Data == nil || r.Error.Data.Code != "bridge_invalid_request") {
			t.Fatalf("id %s: %+v", tc.id, r.Error)
		}
	}
	// Inside a batch, and on a rate-limit refusal, too.
	if err := c.Write(context.Background(), websocket.MessageText, []byte(`[{"jsonrpc":"2.0","id":{"x":1},"method":"app.info"}]`)); err != nil {
		t.Fatal(err)
	}
	_, data, err := c.Read(context.Background())
	if err != nil || !strings.Contains(string(data), `"id":null`) || strings.Contains(string(data), `"x"`) {
		t.Fatalf("batch: %s %v", data, err)
	}
	g := start(t, Config{RatePerSec: 0.001, Burst: 1})
	d := g.mustDial(t)
	call(t, d, 1, "app.info", `{}`)
	if err := d.Write(context.Background(), websocket.MessageText, []byte(`{"jsonrpc":"2.0","id":{"x":1},"method":"app.info"}`)); err != nil {
		t.Fatal(err)
	}
	if r := readMsg(t, d); string(r.ID) != "null" || r.Error == nil || r.Error.Code != rpcRateLimited {
		t.Fatalf("refusal: id %s %+v", r.ID, r.Error)
	}
}

func TestRateLimitFloodKeepsItsClient(t *testing.T) {
	f := startWith(t, Config{RatePerSec: 20, Burst: 5}, nil, func(s *Server) { s.onAccept = smallSendBuffer })
	// A client that pipelines: it writes everything before reading anything, and the socket
	// buffers are small, so the bridge's writes back up as soon as the replies outgrow them.
	opts := &websocket.DialOptions{HTTPClient: &http.Client{Transport: &http.Transport{DialContext: smallReceiveBuffer()}}}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, f.ws+"?token="+f.srv.Token(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	waitFor(t, "the client registered", func() bool { return len(f.srv.Clients()) == 1 })
	f.srv.mu.Lock()
	var sc *client
	for _, x := range f.srv.clients {
		sc = x
	}
	f.srv.mu.Unlock()
	const flood = 4000
	for i := 1; i <= flood; i++ {
		msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"app.info","params":{}}`, i)
		if err := c.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
			t.Fatalf("write %d: %v (the connection was dropped during the flood)", i, err)
		}
	}
	// Now the client reads everything.
	var mu sync.Mutex
	answered, limited := map[int]bool{}, map[int]bool{}
	readErr := make(chan error, 1)
	go func() {
		for {
			_, data, err := c.Read(ctx)
			if err != nil {
				readErr <- err
				return
			}
			var r response
			if json.Unmarshal(data, &r) != nil || r.Method == "event" {
				continue
			}
			id, _ := strconv.Atoi(string(r.ID))
			mu.Lock()
			if r.Error != nil && r.Error.Code == rpcRateLimited {
				limited[id] = true
			} else if r.Error == nil {
				answered[id] = true
			}
			mu.Unlock()
		}
	}()
	alive := func() {
		t.Helper()
		select {
		case err := <-readErr:
			t.Fatalf("the flooding client was dropped: %v", err)
		default:
		}
	}
	// Refusals past the budget got no reply at all; wait until the flood is read and the
	// refusals it did get are written, so the next refusal has a budget.
	waitFor(t, "the bridge to read the whole flood", func() bool {
		alive()
		return sc.received.Load() == flood && sc.refusals.Load() == 0
	})
	if sc.suppressed.Load() == 0 {
		t.Fatal("the flood never outgrew the refusal budget: the test proves nothing")
	}
	// A legitimate call once the flood is over: asked again while the bucket refills, each
	// refusal now answered since nothing else is queued.
	next := flood
	done := func() bool {
		alive()
		mu.Lock()
		defer mu.Unlock()
		if answered[next] {
			return true
		}
		if next == flood || limited[next] {
			next++
			msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"app.info","params":{}}`, next)
			if err := c.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
				t.Fatalf("write after the flood: %v", err)
			}
		}
		return false
	}
	t.Cleanup(func() {
		if t.Failed() {
			mu.Lock()
			t.Logf("next %d answered %d limited %d refusals %d suppressed %d requests %d received %d", next, len(answered), len(limited),
				sc.refusals.Load(), sc.suppressed.Load(), sc.requests.Load(), sc.received.Load())
			mu.Unlock()
		}
	})
	waitFor(t, "a legitimate call answered after the flood", done)
	// Every call the bucket accepted, during the flood too, was answered.
	waitFor(t, "every accepted call answered", func() bool {
		alive()
		mu.Lock()
		defer mu.Unlock()
		return int64(len(answered)) == sc.requests.Load()
	})
	for id := 1; id <= 5; id++ {
		if !answered[id] {
			t.Fatalf("accepted call %d got no answer", id)
		}
	}
	if cl := f.srv.Clients(); len(cl) != 1 {
		t.Fatalf("clients %+v", cl)
	}
}

func TestCSPNamesOnlyThisBridge(t *testing.T) {
	f := start(t, Config{})
	p := strconv.Itoa(f.srv.Port())
	for _, host := range []string{"127.0.0.1:" + p, "localhost:" + p} {
		req, _ := http.NewRequest("GET", f.base+"/", nil)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		want := "default-src 'self'; connect-src 'self' ws://" + host + " http://" + host +
			"; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"
		if got := resp.Header.Get("Content-Security-Policy"); got != want {
			t.Fatalf("CSP for %s:\n%s\nwant\n%s", host, got, want)
		}
	}
}

// fakeRemote stands for the app that runs the bridge.
type fakeRemote struct {
	token  string
	regens int
	mu     sync.Mutex
}

func (r *fakeRemote) RemoteStatus() api.RemoteStatus {
	return api.RemoteStatus{Enabled: true, Running: true, Addr: "127.0.0.1:1", URL: "http://127.0.0.1:1/#token=" + r.token, Token: r.token}
}

func (r *fakeRemote) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.regens
}

func (r *fakeRemote) RegenerateToken() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.regens++
	return nil
}

func TestRemoteCallsHideTheToken(t *testing.T) {
	rem := &fakeRemote{token: strings.Repeat("s3cr3t", 8)}
	f := startWith(t, Config{}, rem, nil)
	c := f.mustDial(t)
	r := call(t, c, 1, "remote.status", `{}`)
	if r.Error != nil {
		t.Fatal(r.Error)
	}
	var raw map[string]any
	if err := json.Unmarshal(r.Result, &raw); err != nil {
		t.Fatal(err)
	}
	if _, has := raw["token"]; has || strings.Contains(string(r.Result), rem.token) || raw["running"] != true {
		t.Fatalf("remote.status over the bridge: %s", r.Result)
	}
	r = call(t, c, 2, "remote.regenerateToken", `{}`)
	if r.Error == nil || r.Error.Data == nil || r.Error.Data.Code != api.CodeRegenerateDesktopOnly || r.Error.Data.Message == "" ||
		strings.Contains(r.Error.Data.Message, "error.") {
		t.Fatalf("regenerate over the bridge: %+v", r.Error)
	}
	if rem.count() != 0 {
		t.Fatal("the token was regenerated over the bridge")
	}
	// The desktop window (acting as the user) still sees and replaces it.
	desk := api.New(context.Background(), api.Deps{Store: f.store, Remote: rem}, memory.ActorUser)
	st, err := desk.Remote.RegenerateToken(api.Empty{})
	if err != nil || st.Token != rem.token || rem.count() != 1 {
		t.Fatalf("desktop regenerate: %+v %v", st, err)
	}
}

func TestImportOverTheBridgeCannotKeepReview(t *testing.T) {
	f := start(t, Config{})
	c := f.mustDial(t)
	line := `{"slug":"vouched","title":"t","scope":"global","type":"user","body":"trust me","reviewed":true,"source":{"kind":"user"}}`
	params, _ := json.Marshal(map[string]any{"jsonl": line, "keep_review": true})
	r := call(t, c, 1, "memory.import", string(params))
	if r.Error == nil || r.Error.Data == nil || r.Error.Data.Code != api.CodeKeepReviewDesktopOnly || r.Error.Data.Message == "" ||
		strings.Contains(r.Error.Data.Message, "error.") {
		t.Fatalf("keep_review over the bridge: %+v", r.Error)
	}
	if n := countMemories(t, f.store); n != 0 {
		t.Fatalf("a refused import wrote %d memories", n)
	}
	params, _ = json.Marshal(map[string]any{"jsonl": line})
	if r := call(t, c, 2, "memory.import", string(params)); r.Error != nil {
		t.Fatal(r.Error)
	}
	m, err := f.store.GetBySlug(context.Background(), memory.ScopeGlobal, "", "", "vouched")
	if err != nil || m.Reviewed || m.Source.Kind != memory.ActorImport {
		t.Fatalf("imported over the bridge: %+v %v", m, err)
	}
}

func TestServeOnAnotherLoopbackAddress(t *testing.T) {
	probe, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("127.0.0.2 cannot be bound here: %v", err)
	}
	probe.Close()
	f := start(t, Config{Addr: "127.0.0.2:0"})
	hostPort := "127.0.0.2:" + strconv.Itoa(f.srv.Port())
	if f.srv.Addr() != hostPort || !strings.HasPrefix(f.srv.URL(), "http://"+hostPort+"/#token=") {
		t.Fatalf("addr %s url %s, want %s", f.srv.Addr(), f.srv.URL(), hostPort)
	}
	resp, err := http.Get("http://" + hostPort + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "ws://"+hostPort+" ") {
		t.Fatalf("GET with Host %s: %d %s", hostPort, resp.StatusCode, resp.Header.Get("Content-Security-Policy"))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws://"+hostPort+"/ws?token="+f.srv.Token(),
		&websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"http://" + hostPort}}})
	if err != nil {
		t.Fatalf("websocket on %s: %v", hostPort, err)
	}
	defer c.CloseNow()
	if r := call(t, c, 1, "app.info", `{}`); r.Error != nil {
		t.Fatal(r.Error)
	}
}

// A browser over the bridge may not make the app write files at a path of its choosing.
func TestExportFolderOverTheBridgeIsRefused(t *testing.T) {
	f := start(t, Config{})
	c := f.mustDial(t)
	dir := filepath.Join(t.TempDir(), "vault")
	params, _ := json.Marshal(map[string]any{"markdown": dir})
	r := call(t, c, 1, "memory.export", string(params))
	if r.Error == nil || r.Error.Data == nil || r.Error.Data.Code != api.CodeExportFolderRemote || strings.Contains(r.Error.Data.Message, "error.") {
		t.Fatalf("markdown export over the bridge: %+v", r.Error)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("a refused export made %s: %v", dir, err)
	}
}
