package bridge

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"engram/backend/i18n"
	"engram/backend/memory"
	"engram/backend/wire"
)

// FuzzRPC feeds arbitrary websocket messages to a connection's JSON-RPC handling over a real
// api and store: whatever arrives — broken JSON, batches, odd ids, hostile params for any
// method — the answer is nothing (a notification) or well-formed JSON-RPC 2.0: one response
// or a list of them, each with a result or an error (code and message) and an id that is a
// string, a number or null, never an echoed object.
func FuzzRPC(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"memory.list","params":{"limit":5}}`,
		`[{"jsonrpc":"2.0","id":"a","method":"memory.search","params":{"query":"tea"}},{"jsonrpc":"2.0","method":"rpc.subscribe","params":{"events":["memory.changed"]}}]`,
		`{"jsonrpc":"2.0","id":2,"method":"memory.write","params":{"slug":"../../etc/passwd","scope":"global","type":"user","title":"t","body":"b"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"memory.importPreview","params":{"jsonl":"{\"slug\":\"x\"}\n","format":"mem0","path":"/etc/shadow"}}`,
		`{"jsonrpc":"2.0","id":{"x":1},"method":"memory.list"}`,
		`{"jsonrpc":"1.0","id":4,"method":"memory.list"}`,
		`[]`, `[1,2,3]`, `nul`, `{"id":5}`, `"just a string"`,
		`{"jsonrpc":"2.0","id":6,"method":"graph.path","params":{"from":"a","to":"b","max_hops":99}}`,
		`{"jsonrpc":"2.0","id":7,"method":"remote.regenerateToken"}`,
	} {
		f.Add([]byte(s))
	}
	// Every service of a real home (wire, as serve assembles them), so each method the
	// table allows runs for real.
	ctx := context.Background()
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		f.Fatal(err)
	}
	home := f.TempDir()
	svc, err := wire.Open(ctx, wire.Options{Home: home, Lang: "en", Catalog: cat, Passive: true})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { svc.Close() })
	srv, err := New(Config{Home: home, Addr: "127.0.0.1:0"}, svc.API(ctx, memory.ActorBridge), svc.Events, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		c := &client{s: srv, ctx: ctx, cancel: cancel, out: make(chan outMsg, 256), sem: make(chan struct{}, 8),
			tokens: 1e9, lastTok: time.Now()}
		out := c.handle(data)
		if out == nil {
			return
		}
		var one rpcReply
		var many []rpcReply
		switch trimmed := bytes.TrimSpace(out); {
		case len(trimmed) > 0 && trimmed[0] == '[':
			if err := json.Unmarshal(out, &many); err != nil || len(many) == 0 {
				t.Fatalf("a batch answer that is not a list of responses: %s (%v)", out, err)
			}
		default:
			if err := json.Unmarshal(out, &one); err != nil {
				t.Fatalf("an answer that is not JSON: %s (%v)", out, err)
			}
			many = []rpcReply{one}
		}
		for _, r := range many {
			if r.JSONRPC != "2.0" {
				t.Fatalf("jsonrpc %q in %s", r.JSONRPC, out)
			}
			if (r.Result == nil) == (r.Error == nil) {
				t.Fatalf("a response needs exactly one of result and error: %s", out)
			}
			if r.Error != nil && (r.Error.Code == 0 || r.Error.Message == "") {
				t.Fatalf("an error without code or message: %s", out)
			}
			if !validID(r.ID) || len(bytes.TrimSpace(r.ID)) == 0 {
				t.Fatalf("id %s echoed in %s", r.ID, out)
			}
		}
	})
}

// rpcReply is a response as a client reads it.
type rpcReply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}
