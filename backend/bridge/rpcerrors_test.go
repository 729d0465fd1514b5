package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode"

	"github.com/coder/websocket"
)

// Protocol refusals said what encoding/json said, in English inside a Chinese sentence
// ("消息不是有效的 JSON：invalid character 'x' …", "cannot unmarshal number into Go value of
// type jsonrpc.Request"); valid JSON that is no request ([1,2], "method": 5) was called a
// parse error, against JSON-RPC 2.0; and a batch over the limit or empty got only "not a valid
// request", never why. Each now has its own translated reason.
func TestProtocolRefusalsSayWhyInThePersonsLanguage(t *testing.T) {
	f := start(t, Config{})
	c := f.mustDial(t)
	if r := call(t, c, 1, "settings.update", `{"language":"zh-CN"}`); r.Error != nil {
		t.Fatal(r.Error)
	}
	over := make([]string, maxBatch+1)
	for i := range over {
		over[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"app.info"}`, i)
	}
	cases := []struct {
		name, msg string
		code      int
		key, id   string
		args      map[string]any
	}{
		{"not JSON", `xx`, rpcParseError, "bridge_parse_error", "null", map[string]any{"Offset": float64(1)}},
		{"cut short", `{"jsonrpc":"2.0","id":1,"method":`, rpcParseError, "bridge_parse_error", "null", map[string]any{"Offset": float64(33)}},
		{"method is a number", `{"jsonrpc":"2.0","id":7,"method":5}`, rpcInvalidRequest, "bridge_request_field", "7", map[string]any{"Field": "method"}},
		{"version is a number", `{"jsonrpc":2,"id":"a","method":"app.info"}`, rpcInvalidRequest, "bridge_request_field", `"a"`, map[string]any{"Field": "jsonrpc"}},
		{"a string, not an object", `"app.info"`, rpcInvalidRequest, "bridge_invalid_request", "null", nil},
		{"empty batch", `[]`, rpcInvalidRequest, "bridge_batch_empty", "null", nil},
		{"batch over the limit", "[" + strings.Join(over, ",") + "]", rpcInvalidRequest, "bridge_batch_too_large", "null",
			map[string]any{"Max": float64(maxBatch), "Count": float64(maxBatch + 1)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := c.Write(context.Background(), websocket.MessageText, []byte(tc.msg)); err != nil {
				t.Fatal(err)
			}
			r := readMsg(t, c)
			if r.Error == nil || r.Error.Code != tc.code || r.Error.Data == nil || r.Error.Data.Code != tc.key || string(r.ID) != tc.id {
				t.Fatalf("%s -> %+v (id %s), want %d %s id %s", tc.msg, r.Error, r.ID, tc.code, tc.key, tc.id)
			}
			for k, v := range tc.args {
				if r.Error.Data.Args[k] != v {
					t.Fatalf("args %v, want %s = %v", r.Error.Data.Args, k, v)
				}
			}
			if !strings.ContainsFunc(r.Error.Message, func(r rune) bool { return unicode.Is(unicode.Han, r) }) {
				t.Fatalf("not said in the person's language: %q", r.Error.Message)
			}
			if strings.Contains(r.Error.Message, "invalid character") || strings.Contains(r.Error.Message, "Go value") {
				t.Fatalf("encoding/json's English in the message: %q", r.Error.Message)
			}
		})
	}
	// A batch of numbers is three invalid requests (JSON-RPC 2.0's own example), not a parse error.
	if err := c.Write(context.Background(), websocket.MessageText, []byte(`[1,2,3]`)); err != nil {
		t.Fatal(err)
	}
	_, data, err := c.Read(context.Background())
	for strings.Contains(string(data), `"method":"event"`) && err == nil {
		_, data, err = c.Read(context.Background())
	}
	var batch []response
	if err != nil || json.Unmarshal(data, &batch) != nil || len(batch) != 3 {
		t.Fatalf("[1,2,3]: %s %v", data, err)
	}
	for _, r := range batch {
		if r.Error == nil || r.Error.Code != rpcInvalidRequest || r.Error.Data.Code != "bridge_invalid_request" {
			t.Fatalf("[1,2,3] item: %+v", r.Error)
		}
	}
}
