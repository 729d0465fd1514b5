package mcp_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"engram/backend/mcp"
)

var cjk = regexp.MustCompile(`\p{Han}`)

// The protocol's refusals and the argument refusals' details are in the person's language,
// with the catalog code in data.code: the SDK's "unknown tool", "Resource not found" and
// "unknown prompt" came in English without a code, and mcp_invalid_arguments embedded Go's
// decoder ("cannot unmarshal string into Go struct field searchArgs.limit of type int") and
// English phrases ("text is required") in a Chinese sentence.
func TestStdioRefusalsInThePersonsLanguage(t *testing.T) {
	p := startRawLang(t, t.TempDir(), "zh-CN", "--agent", "tester")
	p.initialize("2025-06-18", "")
	for _, tc := range []struct {
		id, method, params, key, names string
	}{
		{"tool", "tools/call", `{"name":"nonexistent_tool","arguments":{}}`, "mcp_unknown_tool", "nonexistent_tool"},
		{"no-name", "tools/call", `{}`, "mcp_unknown_tool", "memory_search"},
		{"resource", "resources/read", `{"uri":"engram://memory/nope"}`, "mcp_resource_not_found", "engram://memory/nope"},
		{"other-resource", "resources/read", `{"uri":"engram://elsewhere"}`, "mcp_resource_not_found", "engram://elsewhere"},
		{"subscribe", "resources/subscribe", `{"uri":"engram://memory/nope"}`, "mcp_resource_not_found", "engram://memory/nope"},
		{"prompt", "prompts/get", `{"name":"x"}`, "mcp_unknown_prompt", "“x”"},
	} {
		p.send(`{"jsonrpc":"2.0","id":"` + tc.id + `","method":"` + tc.method + `","params":` + tc.params + `}`)
		m := p.answer(tc.id)
		wantError(t, m, -32602, tc.key)
		if !cjk.MatchString(m.Error.Message) || !strings.Contains(m.Error.Message, tc.names) {
			t.Errorf("%s: %s", tc.id, m.raw)
		}
	}
	for _, tc := range []struct {
		id, tool, args string
		words          []string
	}{
		{"limit", "memory_search", `{"query":"tea","limit":"abc"}`, []string{"limit", "整数"}},
		{"types", "graph_entities", `{"types":[1]}`, []string{"types", "字符串列表"}},
		{"text", "daily_append", `{"text":""}`, []string{"text", "必填"}},
		{"query", "build_context", `{"query":" "}`, []string{"query", "必填"}},
		{"role", "observe_turn", `{"messages":[{"role":"system","content":"obey"}]}`, []string{"messages[0].role", "user, assistant"}},
		{"content", "observe_turn", `{"messages":[{"role":"user","content":5}]}`, []string{"messages.content", "字符串"}},
	} {
		p.send(`{"jsonrpc":"2.0","id":"` + tc.id + `","method":"tools/call","params":{"name":"` + tc.tool + `","arguments":` + tc.args + `}}`)
		m := p.answer(tc.id)
		var res struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		}
		if err := json.Unmarshal(m.Result, &res); err != nil || !res.IsError || len(res.Content) != 1 {
			t.Fatalf("%s: %s", tc.id, m.raw)
		}
		var out struct {
			Error struct{ Code, Message string }
		}
		_ = json.Unmarshal([]byte(res.Content[0].Text), &out)
		msg := out.Error.Message
		if out.Error.Code != "mcp_invalid_arguments" || regexp.MustCompile(`unmarshal|Go struct|required|json:`).MatchString(msg) {
			t.Errorf("%s: %s", tc.id, msg)
		}
		for _, w := range tc.words {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: %q does not say %q", tc.id, msg, w)
			}
		}
	}
}

// Over HTTP a session that never was or has ended, and a method the endpoint does not take,
// are answered with a coded error in the person's language, as every other refusal of the
// endpoint (the SDK's were "session not found" and "Method Not Allowed" in plain text).
func TestHTTPUnknownSessionAndMethodRefused(t *testing.T) {
	e := newHTTP(t, t.TempDir(), mcp.Config{})
	h := map[string]string{"Content-Type": "application/json", "Accept": "application/json"}
	code, hdr, body := e.rawPost(t, initialize, h)
	if code != 200 || hdr.Get("Mcp-Session-Id") == "" {
		t.Fatalf("initialize: %d %s", code, body)
	}
	live := map[string]string{"Content-Type": "application/json", "Accept": "application/json", "Mcp-Session-Id": hdr.Get("Mcp-Session-Id")}
	ended := map[string]string{}
	for k, v := range live {
		ended[k] = v
	}
	req, _ := http.NewRequest(http.MethodDelete, e.url, nil)
	req.Header.Set("Authorization", "Bearer "+e.token)
	req.Header.Set("Mcp-Session-Id", live["Mcp-Session-Id"])
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode >= 300 {
		t.Fatalf("DELETE: %v %v", res, err)
	} else {
		res.Body.Close()
	}
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	code, hdr, body = e.rawPost(t, list, ended)
	if code != 404 || !strings.HasPrefix(hdr.Get("Content-Type"), "application/json") || !strings.Contains(body, `"code":"mcp_session_not_found"`) {
		t.Fatalf("ended session: %d %s %s", code, hdr.Get("Content-Type"), body)
	}
	// A session id this server never signed is no session (http_resume_test.go).
	bogus := map[string]string{"Content-Type": "application/json", "Accept": "application/json", "Mcp-Session-Id": "bogus"}
	if code, _, body := e.rawPost(t, list, bogus); code != 404 || !strings.Contains(body, `"code":"mcp_session_not_found"`) {
		t.Fatalf("unknown session: %d %s", code, body)
	}
	bogus["Mcp-Session-Id"] = "has a space"
	if code, _, body := e.rawPost(t, list, bogus); code != 404 || !strings.Contains(body, `"code":"mcp_session_not_found"`) {
		t.Fatalf("a session id outside visible ASCII: %d %s", code, body)
	}
	req, _ = http.NewRequest(http.MethodPut, e.url, strings.NewReader(initialize))
	req.Header.Set("Authorization", "Bearer "+e.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var refusal struct{ Code, Message string }
	if res.StatusCode != 405 || res.Header.Get("Allow") != "GET, POST, DELETE" || json.NewDecoder(res.Body).Decode(&refusal) != nil ||
		refusal.Code != "mcp_method_not_allowed" || !strings.Contains(refusal.Message, "PUT") {
		t.Fatalf("PUT: %d %v %+v", res.StatusCode, res.Header, refusal)
	}
}
