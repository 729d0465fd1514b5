//go:build bench

package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/oklog/ulid/v2"

	"engram/backend/api"
	"engram/backend/bridge"
	"engram/backend/mcp"
	"engram/backend/memory"
	"engram/backend/wire"
)

// MCPFigures are the MCP server's tool-call latency over both transports and its start time.
type MCPFigures struct {
	Memories         int     `json:"memories"`
	Visible          int     `json:"visible"`
	StdioSearchP50Ms float64 `json:"stdio_search_p50_ms"`
	StdioSearchP95Ms float64 `json:"stdio_search_p95_ms"`
	HTTPSearchP50Ms  float64 `json:"http_search_p50_ms"`
	HTTPSearchP95Ms  float64 `json:"http_search_p95_ms"`
	// InProcess is the same search through the api in-process (recall.tool): the transport's
	// share is the difference.
	InProcessP50Ms    float64 `json:"in_process_search_p50_ms"`
	InProcessP95Ms    float64 `json:"in_process_search_p95_ms"`
	StartToReadyP50Ms float64 `json:"start_to_ready_p50_ms"`
	StartToReadyMaxMs float64 `json:"start_to_ready_max_ms"`
	// ChangeSeen is how long after another process (this one, standing in for the desktop
	// app or the CLI) wrote a memory the stdio client was told (resources list_changed).
	ChangeSeenP50Ms float64 `json:"change_seen_p50_ms"`
	ChangeSeenMaxMs float64 `json:"change_seen_max_ms"`
}

// generateVisible writes n memory files an MCP agent sees: global entries (the quota binds
// writes, not files placed by hand), so every search ranks over all of them.
func generateVisible(home string, n int, r *rand.Rand, v *vocab) error {
	now := time.Now()
	for i := 0; i < n; i++ {
		m := &memory.Memory{ID: ulid.Make().String(), Slug: fmt.Sprintf("mem-%07d", i), Type: types[i%len(types)],
			Scope: memory.ScopeGlobal, Confidence: memory.ConfidenceMedium, Reviewed: i%3 != 0, SourceQuote: "synthetic",
			Created: now.Add(-time.Duration(r.IntN(400*24)) * time.Hour), Updated: now}
		m.Title = v.sentence(r, 4)
		m.Body = v.sentence(r, 20+r.IntN(40)) + "\n\n" + v.sentence(r, 10+r.IntN(20))
		data, err := memory.Render(m)
		if err != nil {
			return err
		}
		p := filepath.Join(home, "memory", "global", string(m.Type), m.Slug+".md")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// RunMCP measures memory_search through the SDK's own client: over stdio against `bin mcp`
// (this binary, as an agent CLI starts it) and over streamable HTTP against a real bridge, on
// a home of n memories with every vector computed; and how long `engram mcp` takes from exec
// to an answered initialize on that home.
func RunMCP(ctx context.Context, n int, bin string, progress io.Writer) (MCPFigures, error) {
	f := MCPFigures{Memories: n}
	home, err := os.MkdirTemp("", "engram-bench-mcp-")
	if err != nil {
		return f, err
	}
	defer os.RemoveAll(home)
	r := rand.New(rand.NewPCG(uint64(n), 11))
	v := newVocab(r)
	say := func(s string) {
		if progress != nil {
			fmt.Fprintln(progress, "  [mcp] "+s)
		}
	}
	say(fmt.Sprintf("generating %d memories", n))
	if err := generateVisible(home, n, r, v); err != nil {
		return f, err
	}
	svc, err := wire.Open(ctx, wire.Options{Home: home, Lang: "en"})
	if err != nil {
		return f, err
	}
	defer svc.Close()
	if svc.Indexer() != nil {
		say("computing vectors")
		if err := svc.Indexer().Run(ctx); err != nil {
			return f, err
		}
	}
	queries := make([]string, 300)
	for i := range queries {
		queries[i] = v.query(r, i%3 == 0)
	}
	a := svc.API(ctx, api.ActorTool)
	var inproc []time.Duration
	for i, q := range queries {
		raw, _ := json.Marshal(map[string]any{"action": "search", "query": q, "limit": 10})
		t0 := time.Now()
		if _, err := a.Invoke("recall.tool", &api.ToolParams{Agent: "bench", Args: raw}); err != nil {
			return f, err
		}
		if i >= 10 {
			inproc = append(inproc, time.Since(t0))
		}
	}
	f.InProcessP50Ms, f.InProcessP95Ms = percentile(inproc, .5), percentile(inproc, .95)
	measure := func(cs *sdk.ClientSession) ([]time.Duration, error) {
		var lat []time.Duration
		for i, q := range queries {
			t0 := time.Now()
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "memory_search", Arguments: map[string]any{"query": q, "limit": 10}})
			if err != nil {
				return nil, err
			}
			if res.IsError {
				return nil, fmt.Errorf("bench: memory_search failed: %v", res.Content)
			}
			if i >= 10 { // the first calls warm the caches
				lat = append(lat, time.Since(t0))
			}
		}
		return lat, nil
	}
	connectStdio := func() (*sdk.ClientSession, time.Duration, error) {
		cmd := exec.Command(bin, "mcp", "--agent", "bench")
		cmd.Env = append(os.Environ(), "ENGRAM_HOME="+home, "ENGRAM_LANG=en")
		c := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
		t0 := time.Now()
		cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
		return cs, time.Since(t0), err
	}
	say("stdio start to ready")
	var starts []time.Duration
	for range 5 {
		cs, d, err := connectStdio()
		if err != nil {
			return f, err
		}
		starts = append(starts, d)
		_ = cs.Close()
	}
	f.StartToReadyP50Ms, f.StartToReadyMaxMs = percentile(starts, .5), percentile(starts, 1)
	say("memory_search over stdio")
	cs, _, err := connectStdio()
	if err != nil {
		return f, err
	}
	if res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "memory_list", Arguments: map[string]any{"limit": 1}}); err == nil && !res.IsError {
		var out struct {
			Total int `json:"total"`
		}
		_ = json.Unmarshal([]byte(res.Content[0].(*sdk.TextContent).Text), &out)
		f.Visible = out.Total
	}
	lat, err := measure(cs)
	_ = cs.Close()
	if err != nil {
		return f, err
	}
	f.StdioSearchP50Ms, f.StdioSearchP95Ms = percentile(lat, .5), percentile(lat, .95)

	say("a write in another process reaching the stdio client")
	seen, err := changeSeen(ctx, bin, home, svc.API(ctx, api.ActorUser))
	if err != nil {
		return f, err
	}
	f.ChangeSeenP50Ms, f.ChangeSeenMaxMs = percentile(seen, .5), percentile(seen, 1)

	say("memory_search over HTTP")
	m, err := mcp.New(svc.API(ctx, api.ActorTool), svc.Events, mcp.Config{Transport: api.TransportHTTP})
	if err != nil {
		return f, err
	}
	defer m.Close()
	srv, err := bridge.New(bridge.Config{Addr: "127.0.0.1:0", Home: home, MCP: m.Handler()}, svc.API(ctx, api.ActorBridge), svc.Events, nil)
	if err != nil {
		return f, err
	}
	if err := srv.Start(); err != nil {
		return f, err
	}
	defer srv.Stop(context.Background())
	hc := &http.Client{Transport: bearer{token: srv.Token(), next: http.DefaultTransport}}
	c := sdk.NewClient(&sdk.Implementation{Name: "bench-http", Version: "1"}, nil)
	hs, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: "http://127.0.0.1:" + strconv.Itoa(srv.Port()) + "/mcp",
		HTTPClient: hc}, nil)
	if err != nil {
		return f, err
	}
	defer hs.Close()
	lat, err = measure(hs)
	if err != nil {
		return f, err
	}
	f.HTTPSearchP50Ms, f.HTTPSearchP95Ms = percentile(lat, .5), percentile(lat, .95)
	return f, nil
}

type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// PrintMCP writes the MCP figures.
func PrintMCP(w io.Writer, f MCPFigures, asJSON bool) {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(f)
		return
	}
	fmt.Fprintf(w, "MCP server over %d memories (%d visible to the agent; the SDK's client; recall with local vectors)\n", f.Memories, f.Visible)
	fmt.Fprintf(w, "  memory_search over stdio  p50 %8.2f ms   p95 %8.2f ms\n", f.StdioSearchP50Ms, f.StdioSearchP95Ms)
	fmt.Fprintf(w, "  memory_search over HTTP   p50 %8.2f ms   p95 %8.2f ms\n", f.HTTPSearchP50Ms, f.HTTPSearchP95Ms)
	fmt.Fprintf(w, "  the same search in-process    p50 %8.2f ms   p95 %8.2f ms (recall.tool through the api)\n", f.InProcessP50Ms, f.InProcessP95Ms)
	fmt.Fprintf(w, "  engram mcp exec → initialized  p50 %8.0f ms   max %8.0f ms\n", f.StartToReadyP50Ms, f.StartToReadyMaxMs)
	fmt.Fprintf(w, "  another process's write → client told  p50 %6.0f ms   max %6.0f ms\n", f.ChangeSeenP50Ms, f.ChangeSeenMaxMs)
}

// changeSeen writes memories from this process while an `engram mcp` client listens, and
// times each write until the client hears list_changed (the cross-process poll, then MCP).
func changeSeen(ctx context.Context, bin, home string, user *api.API) ([]time.Duration, error) {
	changed := make(chan struct{}, 64)
	c := sdk.NewClient(&sdk.Implementation{Name: "bench-watch", Version: "1"}, &sdk.ClientOptions{
		ResourceListChangedHandler: func(context.Context, *sdk.ResourceListChangedRequest) {
			select {
			case changed <- struct{}{}:
			default:
			}
		}})
	cmd := exec.Command(bin, "mcp", "--agent", "bench")
	cmd.Env = append(os.Environ(), "ENGRAM_HOME="+home, "ENGRAM_LANG=en")
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	// One call first: the server is serving and watching once it has answered.
	if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "memory_list", Arguments: map[string]any{"limit": 1}}); err != nil {
		return nil, err
	}
	var out []time.Duration
	for i := 0; i < 12; i++ {
		for len(changed) > 0 {
			<-changed
		}
		// Writes land at any moment of the poll's cycle, as a person's do.
		time.Sleep(time.Duration(37*i%300) * time.Millisecond)
		for len(changed) > 0 {
			<-changed
		}
		t0 := time.Now()
		if _, err := user.Memory.Write(api.WriteParams{Scope: api.ScopeAgent, Agent: "bench", Type: api.TypeReference,
			Slug: fmt.Sprintf("bench-change-%d", i), Title: "Change seen", Body: "A write from another process."}); err != nil {
			return nil, err
		}
		select {
		case <-changed:
			if i >= 2 {
				out = append(out, time.Since(t0))
			}
		case <-time.After(30 * time.Second):
			return nil, fmt.Errorf("bench: the MCP client never heard of write %d", i)
		}
	}
	return out, nil
}
