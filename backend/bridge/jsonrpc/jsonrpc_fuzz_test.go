package jsonrpc

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzMessage: whatever a websocket message holds, reading it never panics; a request that
// passes is version 2.0 with a method and an id that is a string, a number, null or absent;
// a refusal carries a JSON-RPC code, an error key and an id that may be echoed; and the answer
// the bridge builds from either marshals to JSON whose id is a string, a number or null —
// never a client's object coming back. The bridge's FuzzRPC runs the same bytes through the
// real services (`make fuzz`).
func FuzzMessage(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"memory.list","params":{"limit":5}}`,
		`[{"jsonrpc":"2.0","id":"a","method":"memory.search","params":{"query":"tea"}},{"jsonrpc":"2.0","method":"rpc.subscribe","params":{"events":["memory.changed"]}}]`,
		`{"jsonrpc":"2.0","id":{"x":1},"method":"memory.list"}`, `{"jsonrpc":"2.0","id":[1],"method":"m"}`,
		`{"jsonrpc":"1.0","id":4,"method":"memory.list"}`, `{"jsonrpc":"2.0","id":-1.5e3,"method":"m"}`,
		`[]`, `[1,2,3]`, `nul`, `{"id":5}`, `"just a string"`, ` [ {"jsonrpc":"2.0","id":null,"method":"x"} ] `,
		`{"jsonrpc":"2.0","id":"\u0000","method":"\ud800"}`, `{"jsonrpc":"2.0","id":1,"method":"m","params":[1,{"a":null}]}`,
		`{"jsonrpc":"2.0","id":1,"id":{"y":2},"method":"m"}`, "\xff\xfe", "",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		items, batch, p := Split(data, 50)
		if p != nil {
			answer(t, p.ID, p)
			return
		}
		if batch && (len(items) == 0 || len(items) > 50) {
			t.Fatalf("batch of %d items accepted", len(items))
		}
		for _, item := range items {
			req, p := Decode(item)
			if p != nil {
				answer(t, p.ID, p)
				continue
			}
			if req.JSONRPC != "2.0" || req.Method == "" || !ValidID(req.ID) {
				t.Fatalf("accepted %+v from %q", req, item)
			}
			answer(t, req.ID, nil)
		}
	})
}

// answer builds the response the bridge would send for id and checks it on the wire.
func answer(t *testing.T, id json.RawMessage, p *Problem) {
	t.Helper()
	type rpcError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	resp := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  any             `json:"result,omitempty"`
		Error   *rpcError       `json:"error,omitempty"`
	}{JSONRPC: "2.0", ID: NullID(id)}
	if p != nil {
		if p.Code >= 0 || p.Key == "" {
			t.Fatalf("a refusal without code or key: %+v", p)
		}
		resp.Error = &rpcError{Code: p.Code, Message: p.Key}
	} else {
		resp.Result = struct{}{}
	}
	b, err := json.Marshal(resp)
	if err != nil {
		t.Fatalf("the answer does not marshal (id %q): %v", id, err)
	}
	var back struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("the answer is not JSON: %s", b)
	}
	switch c := bytes.TrimSpace(back.ID); {
	case len(c) == 0:
		t.Fatalf("answer without id: %s", b)
	case c[0] == '{' || c[0] == '[' || c[0] == 't' || c[0] == 'f':
		t.Fatalf("id %s echoed in %s", c, b)
	}
}
