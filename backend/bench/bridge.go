//go:build bench

package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"time"

	"github.com/coder/websocket"

	"engram/backend/api"
	"engram/backend/bridge"
	"engram/backend/wire"
)

// BridgeFigures are the bridge's round-trip and throughput measurements.
type BridgeFigures struct {
	Memories        int     `json:"memories"`
	SearchRTTP50Ms  float64 `json:"search_rtt_p50_ms"`
	SearchRTTP95Ms  float64 `json:"search_rtt_p95_ms"`
	InfoRTTP50Ms    float64 `json:"info_rtt_p50_ms"`
	PipelinedMsgSec float64 `json:"pipelined_msgs_per_s"`
	DefaultRateSec  float64 `json:"default_rate_limit_per_s"`
}

// RunBridge measures a real bridge on 127.0.0.1 over a store of n synthetic memories. The
// throughput figure is taken with the per-connection rate limit lifted, to show capacity;
// the default limit is reported beside it.
func RunBridge(ctx context.Context, n int, progress io.Writer) (BridgeFigures, error) {
	f := BridgeFigures{Memories: n, DefaultRateSec: 200}
	home, err := os.MkdirTemp("", "engram-bench-bridge-")
	if err != nil {
		return f, err
	}
	defer os.RemoveAll(home)
	r := rand.New(rand.NewPCG(uint64(n), 7))
	v := newVocab(r)
	if progress != nil {
		fmt.Fprintf(progress, "  [bridge] generating %d memories\n", n)
	}
	if _, err := generate(home, n, r, v); err != nil {
		return f, err
	}
	// The same services the app runs, from the same constructor: the local embedder, with
	// every vector computed first.
	svc, err := wire.Open(ctx, wire.Options{Home: home, Lang: "en", Passive: true})
	if err != nil {
		return f, err
	}
	defer svc.Close()
	if svc.Indexer() == nil {
		return f, fmt.Errorf("bench: the default embedder is missing")
	}
	if err := svc.Indexer().Run(ctx); err != nil {
		return f, err
	}
	a, hub := svc.API(ctx, api.ActorBridge), svc.Events
	srv, err := bridge.New(bridge.Config{Addr: "127.0.0.1:0", Home: home, RatePerSec: 1e9, Burst: 1 << 30, SendQueue: 4096}, a, hub, nil)
	if err != nil {
		return f, err
	}
	if err := srv.Start(); err != nil {
		return f, err
	}
	defer srv.Stop(context.Background())
	c, _, err := websocket.Dial(ctx, "ws://127.0.0.1:"+strconv.Itoa(srv.Port())+"/ws?token="+srv.Token(), nil)
	if err != nil {
		return f, err
	}
	defer c.CloseNow()
	c.SetReadLimit(8 << 20)
	id := 0
	roundTrip := func(method string, params any) (time.Duration, error) {
		id++
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		t := time.Now()
		if err := c.Write(ctx, websocket.MessageText, b); err != nil {
			return 0, err
		}
		for {
			_, data, err := c.Read(ctx)
			if err != nil {
				return 0, err
			}
			var resp struct {
				ID    int             `json:"id"`
				Error json.RawMessage `json:"error"`
			}
			_ = json.Unmarshal(data, &resp)
			if resp.ID == id {
				if len(resp.Error) > 0 {
					return 0, fmt.Errorf("bench: %s failed: %s", method, resp.Error)
				}
				return time.Since(t), nil
			}
		}
	}
	if progress != nil {
		fmt.Fprintln(progress, "  [bridge] search round trips")
	}
	var lat, info []time.Duration
	for i := 0; i < 300; i++ {
		d, err := roundTrip("memory.search", map[string]any{"query": v.query(r, i%3 == 0), "limit": 10})
		if err != nil {
			return f, err
		}
		lat = append(lat, d)
	}
	for i := 0; i < 300; i++ {
		d, err := roundTrip("app.info", map[string]any{})
		if err != nil {
			return f, err
		}
		info = append(info, d)
	}
	f.SearchRTTP50Ms, f.SearchRTTP95Ms, f.InfoRTTP50Ms = percentile(lat, .5), percentile(lat, .95), percentile(info, .5)

	if progress != nil {
		fmt.Fprintln(progress, "  [bridge] pipelined throughput")
	}
	list, err := a.Memory.List(api.ListParams{Limit: 1})
	if err != nil || len(list.Items) == 0 {
		return f, fmt.Errorf("bench: no memory to read: %v", err)
	}
	readParams := `{"id":"` + list.Items[0].ID + `"}`
	const total = 20000
	done := make(chan error, 1)
	t0 := time.Now()
	go func() {
		got := 0
		for got < total {
			if _, _, err := c.Read(ctx); err != nil {
				done <- err
				return
			}
			got++
		}
		done <- nil
	}()
	for i := 0; i < total; i++ {
		b := []byte(`{"jsonrpc":"2.0","id":` + strconv.Itoa(100000+i) + `,"method":"memory.read","params":` + readParams + `}`)
		if err := c.Write(ctx, websocket.MessageText, b); err != nil {
			return f, err
		}
	}
	if err := <-done; err != nil {
		return f, err
	}
	f.PipelinedMsgSec = total / time.Since(t0).Seconds()
	return f, nil
}

// PrintBridge writes the bridge figures.
func PrintBridge(w io.Writer, f BridgeFigures, asJSON bool) {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(f)
		return
	}
	fmt.Fprintf(w, "bridge over %d memories (127.0.0.1 websocket, JSON-RPC; recall with local vectors)\n", f.Memories)
	fmt.Fprintf(w, "  memory.search round trip p50   %8.2f ms\n", f.SearchRTTP50Ms)
	fmt.Fprintf(w, "  memory.search round trip p95   %8.2f ms\n", f.SearchRTTP95Ms)
	fmt.Fprintf(w, "  app.info round trip p50        %8.2f ms\n", f.InfoRTTP50Ms)
	fmt.Fprintf(w, "  one connection, memory.read pipelined %8.0f msgs/s (rate limit lifted; default limit %.0f/s)\n", f.PipelinedMsgSec, f.DefaultRateSec)
}
