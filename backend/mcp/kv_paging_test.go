package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"engram/backend/mcp"
)

// writeKV writes an agent's kv.json by hand, as a person may (README: one JSON object).
func writeKV(t *testing.T, home, agent string, kv map[string]any) {
	t.Helper()
	dir := filepath.Join(home, "memory", "agents", agent)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(kv)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "kv.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// rawCall calls a tool and returns its JSON text as sent, for measuring it.
func (c *client) rawCall(name string, args map[string]any) (string, bool) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := c.cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil || len(res.Content) != 1 {
		c.t.Fatalf("%s: %v %v", name, err, res)
	}
	return res.Content[0].(*sdk.TextContent).Text, res.IsError
}

// kvPages follows kv_list's next_cursor from args to the end and returns every key listed,
// checking each page with check.
func kvPages(c *client, args map[string]any, check func(text string, entries int)) []string {
	c.t.Helper()
	var keys []string
	for pages := 0; ; pages++ {
		if pages > 400 {
			c.t.Fatalf("kv_list does not reach the end: %d keys after %d pages", len(keys), pages)
		}
		text, isErr := c.rawCall("kv_list", args)
		var page struct {
			Entries []struct {
				Key string `json:"key"`
			} `json:"entries"`
			Total      int    `json:"total"`
			NextCursor string `json:"next_cursor"`
		}
		if isErr || json.Unmarshal([]byte(text), &page) != nil || len(page.Entries) == 0 {
			c.t.Fatalf("kv_list(%v): %v %s", args, isErr, text)
		}
		if check != nil {
			check(text, len(page.Entries))
		}
		for _, e := range page.Entries {
			keys = append(keys, e.Key)
		}
		if page.NextCursor == "" {
			return keys
		}
		if page.NextCursor != keys[len(keys)-1] {
			c.t.Fatalf("next_cursor %q is not the last key listed (%q)", page.NextCursor, keys[len(keys)-1])
		}
		next := map[string]any{"cursor": page.NextCursor}
		for k, v := range args {
			if k != "cursor" {
				next[k] = v
			}
		}
		args = next
	}
}

// kv_list takes the api's paging, cursor and limit, in its schema: an agent follows
// next_cursor past the first 100 keys to the last one (the schema refused "cursor" as an
// unknown field, so only the first page could ever be read).
func TestStdioKVListPagesToTheEnd(t *testing.T) {
	if !hasMethod(t, "kv.list") {
		t.Skip("this build has no kv api methods")
	}
	home := t.TempDir()
	all := map[string]any{}
	var want, wantB []string
	for i := 0; i < 300; i++ {
		all[fmt.Sprintf("k%05d", i)] = "v"
		want = append(want, fmt.Sprintf("k%05d", i))
	}
	for i := 0; i < 7; i++ {
		all[fmt.Sprintf("b/%d", i)] = i
		wantB = append(wantB, fmt.Sprintf("b/%d", i))
	}
	writeKV(t, home, "alpha", all)
	c := stdio(t, home, clientOpts{}, "--agent", "alpha")

	schema := toolSchema(t, c, "kv_list")
	for _, f := range []string{"prefix", "cursor", "limit"} {
		if prop, _ := schema[f].(map[string]any); prop["description"] == nil {
			t.Errorf("kv_list's schema does not describe %s: %v", f, schema)
		}
	}

	sizes := []int{}
	got := kvPages(c, map[string]any{"prefix": "k"}, func(_ string, n int) { sizes = append(sizes, n) })
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(sizes, []int{100, 100, 100}) {
		t.Fatalf("paged %d keys in pages %v", len(got), sizes)
	}
	if got := c.ok("kv_list", map[string]any{"prefix": "k", "cursor": "k00099", "limit": 2}); !containsValue(got, "k00100") ||
		!containsValue(got, "k00101") || containsValue(got, "k00102") || got["next_cursor"] != "k00101" {
		t.Fatalf("cursor k00099, limit 2: %v", got)
	}
	sizes = sizes[:0]
	if got := kvPages(c, map[string]any{"prefix": "b/", "limit": "3"}, func(_ string, n int) { sizes = append(sizes, n) }); !reflect.DeepEqual(got, wantB) ||
		!reflect.DeepEqual(sizes, []int{3, 3, 1}) {
		t.Fatalf("prefix b/ by 3: %v in %v", got, sizes)
	}
	if got := kvPages(c, map[string]any{"limit": 1000}, nil); len(got) != 307 {
		t.Fatalf("limit 1000: %d keys", len(got))
	}
	c.fails("kv_list", map[string]any{"limit": 1001}, "mcp_argument_out_of_range")
	c.fails("kv_list", map[string]any{"limit": 0}, "mcp_argument_out_of_range")
}

// A kv_list page stays within the result budget (--max-tokens) like every list: a page of
// large values comes shorter, with next_cursor at the last key it holds, and paging still
// reaches every key.
func TestStdioKVListPageFitsTheBudget(t *testing.T) {
	if !hasMethod(t, "kv.list") {
		t.Skip("this build has no kv api methods")
	}
	home := t.TempDir()
	all := map[string]any{}
	var want []string
	for i := 0; i < 30; i++ {
		all[fmt.Sprintf("note/%02d", i)] = strings.Repeat("a note of this agent ", 20) // about 100 tokens
		want = append(want, fmt.Sprintf("note/%02d", i))
	}
	writeKV(t, home, "alpha", all)
	c := stdio(t, home, clientOpts{}, "--agent", "alpha", "--max-tokens", "500")
	pages := 0
	got := kvPages(c, map[string]any{"limit": 1000}, func(text string, n int) {
		pages++
		if tokens := mcp.EstimateTokens(text); tokens > 500 {
			t.Errorf("a page of %d entries is %d tokens, over the budget of 500", n, tokens)
		}
	})
	if !reflect.DeepEqual(got, want) || pages < 6 {
		t.Fatalf("paged %v in %d pages", got, pages)
	}
}

// kv_set takes any JSON value, as the README and `kv set --json-value` do: its schema names
// every kind but null, each with its own type (it declared a string, and an object was
// refused; then no type at all, and Gemini CLI skipped the tool), and the api's checks still
// hold — null, over 64 KiB, a secret anywhere inside.
func TestStdioKVSetAnyJSONValue(t *testing.T) {
	if !hasMethod(t, "kv.set") {
		t.Skip("this build has no kv api methods")
	}
	home := t.TempDir()
	c := stdio(t, home, clientOpts{}, "--agent", "alpha")
	value, _ := toolSchema(t, c, "kv_set")["value"].(map[string]any)
	var kinds []string
	for _, alt := range asList(value["anyOf"]) {
		if typ, _ := alt.(map[string]any)["type"].(string); typ != "" {
			kinds = append(kinds, typ)
		}
	}
	if _, typed := value["type"]; typed || value["description"] == nil || strings.Join(kinds, ",") != "string,number,boolean,object,array" {
		t.Errorf("kv_set's value is restricted, untyped or undescribed: %v", value)
	}

	for key, v := range map[string]any{
		"deps":   map[string]any{"a": []any{1.0, 2.0}, "go": "1.26"},
		"nums":   []any{1.0, "two", nil},
		"count":  42.0,
		"done":   true,
		"digits": "42", // a string stays a string: nothing reads it as a number
		"text":   "line one\nline two",
	} {
		if res := c.ok("kv_set", map[string]any{"key": key, "value": v}); res["created"] != true {
			t.Fatalf("kv_set %s: %v", key, res)
		}
		if got := c.ok("kv_get", map[string]any{"key": key}); !reflect.DeepEqual(got["value"], v) {
			t.Fatalf("kv_get %s: %#v, want %#v", key, got["value"], v)
		}
	}
	// The same value again changes nothing; the CLI reads what MCP stored.
	if res := c.ok("kv_set", map[string]any{"key": "deps", "value": map[string]any{"go": "1.26", "a": []any{1, 2}}}); res["changed"] != false {
		t.Fatalf("kv_set of the same object: %v", res)
	}
	if out := cli(t, home, "kv", "get", "--agent", "alpha", "deps"); out != `{"a":[1,2],"go":"1.26"}`+"\n" {
		t.Fatalf("engram kv get: %q", out)
	}

	c.fails("kv_set", map[string]any{"key": "k", "value": nil}, "kv_invalid_value")
	c.fails("kv_set", map[string]any{"key": "k"}, "kv_invalid_value")
	c.fails("kv_set", map[string]any{"key": "k", "value": map[string]any{"big": strings.Repeat("x", 70000)}}, "kv_value_too_large")
	e := c.fails("kv_set", map[string]any{"key": "k", "value": map[string]any{"auth": []any{"ghp_" + strings.Repeat("a1B2", 9)}}}, "secret_detected")
	if b, _ := json.Marshal(e); strings.Contains(string(b), "a1B2a1B2") {
		t.Fatalf("the refusal echoes the secret: %s", b)
	}
	if got := c.ok("kv_list", map[string]any{}); containsValue(got, "k") {
		t.Fatalf("a refused value was stored: %v", got)
	}
}

// toolSchema is the input schema's properties of one tool, as tools/list gives them.
func toolSchema(t *testing.T, c *client, name string) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := c.cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range res.Tools {
		if tl.Name != name {
			continue
		}
		b, _ := json.Marshal(tl.InputSchema)
		var s struct {
			Properties map[string]any `json:"properties"`
		}
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		return s.Properties
	}
	t.Fatalf("no tool %s", name)
	return nil
}

func asList(v any) []any { l, _ := v.([]any); return l }
