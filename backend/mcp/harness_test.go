package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"engram/backend/api"
	"engram/backend/bridge"
	"engram/backend/i18n"
	"engram/backend/mcp"
	"engram/backend/wire"
)

// binary is the engram-cli built once for the package's tests (TestMain), as `make cli` does.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "engram-mcp-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := func() int {
		defer os.RemoveAll(dir)
		bin, err := buildCLI(dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		binary = bin
		return m.Run()
	}()
	os.Exit(code)
}

func buildCLI(dir string) (string, error) {
	root, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(root)
		if parent == root {
			return "", fmt.Errorf("go.mod not found")
		}
		root = parent
	}
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		goBin = "go"
	}
	bin := filepath.Join(dir, "engram-cli")
	cmd := exec.Command(goBin, "build", "-o", bin, ".")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building engram-cli: %v\n%s", err, out)
	}
	return bin, nil
}

// client is one MCP client session with the notifications it heard.
type client struct {
	t       *testing.T
	cs      *sdk.ClientSession
	changed chan struct{} // notifications/resources/list_changed
	updated chan string   // notifications/resources/updated, by URI
}

type clientOpts struct {
	name    string        // clientInfo.name
	roots   []string      // folders offered as file:// roots
	noRoots bool          // declare no roots capability at initialize
	asked   *atomic.Int32 // counts the server's roots/list requests, when set
}

func newSDKClient(o clientOpts) (*sdk.Client, chan struct{}, chan string) {
	changed := make(chan struct{}, 64)
	updated := make(chan string, 256)
	name := o.name
	if name == "" {
		name = "test-client"
	}
	var caps *sdk.ClientCapabilities
	if o.noRoots {
		caps = &sdk.ClientCapabilities{}
	}
	c := sdk.NewClient(&sdk.Implementation{Name: name, Version: "1.0"}, &sdk.ClientOptions{
		Capabilities: caps,
		ResourceListChangedHandler: func(context.Context, *sdk.ResourceListChangedRequest) {
			select {
			case changed <- struct{}{}:
			default:
			}
		},
		ResourceUpdatedHandler: func(_ context.Context, req *sdk.ResourceUpdatedNotificationRequest) {
			select {
			case updated <- req.Params.URI:
			default:
			}
		},
	})
	if o.asked != nil {
		c.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
			return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
				if method == "roots/list" {
					o.asked.Add(1)
				}
				return next(ctx, method, req)
			}
		})
	}
	for _, r := range o.roots {
		c.AddRoots(&sdk.Root{URI: "file://" + r, Name: filepath.Base(r)})
	}
	return c, changed, updated
}

// stdio starts `engram mcp args…` on home as a subprocess and connects the SDK's client to it.
func stdio(t *testing.T, home string, o clientOpts, args ...string) *client {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"mcp"}, args...)...)
	cmd.Env = append(os.Environ(), "ENGRAM_HOME="+home, "ENGRAM_LANG=en")
	var stderr syncBuffer
	cmd.Stderr = &stderr
	c, changed, updated := newSDKClient(o)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect over stdio: %v\nstderr: %s", err, stderr.String())
	}
	t.Cleanup(func() { _ = cs.Close() })
	return &client{t: t, cs: cs, changed: changed, updated: updated}
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// call calls a tool and decodes its JSON text; isError tells a tool error apart.
func (c *client) call(name string, args map[string]any) (map[string]any, bool) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := c.cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		c.t.Fatalf("%s: %v", name, err)
	}
	if len(res.Content) != 1 {
		c.t.Fatalf("%s: %d content blocks", name, len(res.Content))
	}
	text := res.Content[0].(*sdk.TextContent).Text
	var out map[string]any
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		c.t.Fatalf("%s: not JSON: %v\n%s", name, err, text)
	}
	return out, res.IsError
}

// ok calls a tool that must succeed.
func (c *client) ok(name string, args map[string]any) map[string]any {
	c.t.Helper()
	out, isErr := c.call(name, args)
	if isErr {
		c.t.Fatalf("%s(%v) failed: %v", name, args, out)
	}
	return out
}

// fails calls a tool that must fail with code, and returns its error object.
func (c *client) fails(name string, args map[string]any, code string) map[string]any {
	c.t.Helper()
	out, isErr := c.call(name, args)
	e, _ := out["error"].(map[string]any)
	if !isErr || e == nil || e["code"] != code {
		c.t.Fatalf("%s(%v): want error %s, got isError=%v %v", name, args, code, isErr, out)
	}
	if msg, _ := e["message"].(string); msg == "" || strings.HasPrefix(msg, "error.") {
		c.t.Fatalf("%s: error %s has no translated message: %v", name, code, e)
	}
	return e
}

// httpEnv is a real bridge with /mcp on 127.0.0.1, over a temporary home opened in-process.
type httpEnv struct {
	svc   *wire.Services
	srv   *bridge.Server
	url   string
	token string
	stop  func() // stops the bridge and closes the home (Engram quitting); idempotent
}

func newHTTP(t *testing.T, home string, cfg mcp.Config) *httpEnv {
	t.Helper()
	return newHTTPAt(t, home, cfg, "127.0.0.1:0")
}

// newHTTPAt is newHTTP listening on addr (a restart takes the port it had).
func newHTTPAt(t *testing.T, home string, cfg mcp.Config, addr string) *httpEnv {
	t.Helper()
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	svc, err := wire.Open(ctx, wire.Options{Home: home, Lang: "en", Catalog: cat})
	if err != nil {
		t.Fatal(err)
	}
	svc.Background()
	cfg.Transport = api.TransportHTTP
	cfg.Home = home // as the app and `engram serve` set it
	m, err := mcp.New(svc.API(ctx, api.ActorTool), svc.Events, cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := bridge.New(bridge.Config{Addr: addr, Home: home, MCP: m.Handler()}, svc.API(ctx, api.ActorBridge), svc.Events, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	stop := func() {
		once.Do(func() {
			sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer scancel()
			_ = b.Stop(sctx)
			m.Close()
			_ = svc.Close()
			cancel()
		})
	}
	t.Cleanup(stop)
	return &httpEnv{svc: svc, srv: b, url: fmt.Sprintf("http://127.0.0.1:%d/mcp", b.Port()), token: b.Token(), stop: stop}
}

// headerRT adds headers to every request (the token, an Origin).
type headerRT struct {
	h    http.Header
	next http.RoundTripper
}

func (h headerRT) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.h {
		r.Header[k] = v
	}
	return h.next.RoundTrip(r)
}

// connect opens an MCP session over streamable HTTP with the given headers.
func (e *httpEnv) connect(t *testing.T, o clientOpts, h http.Header) (*client, error) {
	t.Helper()
	c, changed, updated := newSDKClient(o)
	hc := &http.Client{Transport: headerRT{h: h, next: http.DefaultTransport}}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: e.url, HTTPClient: hc, MaxRetries: -1}, nil)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { _ = cs.Close() })
	return &client{t: t, cs: cs, changed: changed, updated: updated}, nil
}

func (e *httpEnv) bearer() http.Header {
	return http.Header{"Authorization": {"Bearer " + e.token}}
}

// waitChanged waits for a list_changed notification (generous deadline: a busy machine).
func (c *client) waitChanged(what string) {
	c.t.Helper()
	select {
	case <-c.changed:
	case <-time.After(60 * time.Second):
		c.t.Fatalf("no notifications/resources/list_changed after %s", what)
	}
}

// waitUpdated waits for notifications/resources/updated of uri.
func (c *client) waitUpdated(uri, what string) {
	c.t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		select {
		case got := <-c.updated:
			if got == uri {
				return
			}
		case <-deadline:
			c.t.Fatalf("no notifications/resources/updated of %s after %s", uri, what)
		}
	}
}

// drain forgets notifications heard so far.
func (c *client) drain() {
	for {
		select {
		case <-c.changed:
		default:
			return
		}
	}
}

// cli runs the engram-cli binary on home and returns its stdout.
func cli(t *testing.T, home string, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), "ENGRAM_HOME="+home, "ENGRAM_LANG=en")
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("engram %v: %v\n%s%s", args, err, out, stderr)
	}
	return string(out)
}
