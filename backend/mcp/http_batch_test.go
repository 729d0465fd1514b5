package mcp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"engram/backend/mcp"
)

// batchAnswers reads the answers to a batch: an array in plain JSON, or in an event stream the
// data of its messages (the SDK sends each answer as its own event).
func batchAnswers(t *testing.T, contentType, body string) []map[string]any {
	t.Helper()
	data := []string{body}
	if strings.HasPrefix(contentType, "text/event-stream") {
		data = nil
		for _, line := range strings.Split(body, "\n") {
			if d, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), "data:"); ok && strings.TrimSpace(d) != "" {
				data = append(data, strings.TrimSpace(d))
			}
		}
	}
	var out []map[string]any
	for _, d := range data {
		var many []map[string]any
		var one map[string]any
		switch {
		case json.Unmarshal([]byte(d), &many) == nil:
			out = append(out, many...)
		case json.Unmarshal([]byte(d), &one) == nil:
			out = append(out, one)
		default:
			t.Fatalf("not JSON-RPC answers:\n%s", body)
		}
	}
	return out
}

// batchSession opens a 2025-03-26 session (a version with batches) accepting accept, and returns
// the headers of its later requests.
func (e *httpEnv) batchSession(t *testing.T, accept string) map[string]string {
	t.Helper()
	h := map[string]string{"Content-Type": "application/json", "Accept": accept}
	code, hdr, body := e.rawPost(t, initialize, h)
	if code != 200 || hdr.Get("Mcp-Session-Id") == "" {
		t.Fatalf("initialize: %d %s", code, body)
	}
	h["Mcp-Session-Id"] = hdr.Get("Mcp-Session-Id")
	h["Mcp-Protocol-Version"] = "2025-03-26"
	if code, _, body := e.rawPost(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, h); code != 202 {
		t.Fatalf("initialized: %d %s", code, body)
	}
	return h
}

// A notification nobody handles is dropped from a batch, as a lone one is (JSON-RPC answers
// no notification), and the rest of the batch runs: the SDK refused the whole batch with a
// 400 in plain text, so the calls in it went unanswered. A batch of nothing else is accepted
// with 202. Both kinds of session: plain JSON and event stream.
func TestHTTPBatchDropsUnknownNotifications(t *testing.T) {
	e := newHTTP(t, t.TempDir(), mcp.Config{})
	const unknown = `{"jsonrpc":"2.0","method":"notifications/whatever"}`
	for _, accept := range []string{"application/json", "application/json, text/event-stream"} {
		h := e.batchSession(t, accept)
		for _, tc := range []struct {
			name, body string
			ids        []string // the ids answered, as JSON, in any order; none: 202
		}{
			{"a call and an unknown notification", `[{"jsonrpc":"2.0","id":20,"method":"ping"},` + unknown + `]`, []string{"20"}},
			{"the notification first", `[` + unknown + `,{"jsonrpc":"2.0","id":"a","method":"ping"}]`, []string{`"a"`}},
			{"two calls around two notifications", `[{"jsonrpc":"2.0","id":21,"method":"ping"},` + unknown +
				`,{"jsonrpc":"2.0","method":"notifications/else","params":{"x":1}},{"jsonrpc":"2.0","id":22,"method":"ping"}]`, []string{"21", "22"}},
			{"unknown notifications only", `[` + unknown + `,{"jsonrpc":"2.0","method":"notifications/else"}]`, nil},
			{"with a known notification", `[` + unknown + `,{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}]`, nil},
		} {
			t.Run(accept+"/"+tc.name, func(t *testing.T) {
				status, hdr, body := e.rawPost(t, tc.body, h)
				if tc.ids == nil {
					if status != 202 || strings.TrimSpace(body) != "" {
						t.Fatalf("want 202 and no body, got %d %s", status, body)
					}
					return
				}
				if status != 200 {
					t.Fatalf("%d %s\n%s", status, hdr.Get("Content-Type"), body)
				}
				if strings.HasPrefix(hdr.Get("Content-Type"), "application/json") && !strings.HasPrefix(strings.TrimSpace(body), "[") {
					t.Fatalf("a batch answered with no array: %s", body)
				}
				answers := batchAnswers(t, hdr.Get("Content-Type"), body)
				got := map[string]bool{}
				for _, a := range answers {
					if a["result"] == nil || a["error"] != nil {
						t.Fatalf("not a result: %v", a)
					}
					got[toJSON(a["id"])] = true
				}
				if len(answers) != len(tc.ids) {
					t.Fatalf("%d answers, want %d: %s", len(answers), len(tc.ids), body)
				}
				for _, id := range tc.ids {
					if !got[id] {
						t.Fatalf("no answer for id %s: %s", id, body)
					}
				}
			})
		}
	}
}

// Two calls with one id in a batch are both refused, and with them the rest of the batch,
// each call answered with its own id (the SDK kept one and dropped the other unanswered; had
// both run, the client could not have told their answers apart). Ids compare as JSON values:
// 1 and "1" are two ids, "1" and "\u0031" one.
func TestHTTPBatchDuplicateIDs(t *testing.T) {
	e := newHTTP(t, t.TempDir(), mcp.Config{})
	h := e.batchSession(t, "application/json")
	type answer struct{ id, key string }
	dup := func(id string) answer { return answer{id, "mcp_rpc_batch_duplicate_id"} }
	for _, tc := range []struct {
		name, body string
		want       []answer // in order
	}{
		{"two calls with id 7", `[{"jsonrpc":"2.0","id":7,"method":"ping"},{"jsonrpc":"2.0","id":7,"method":"tools/list"}]`,
			[]answer{dup("7"), dup("7")}},
		{"and another call", `[{"jsonrpc":"2.0","id":7,"method":"ping"},{"jsonrpc":"2.0","id":8,"method":"ping"},{"jsonrpc":"2.0","id":7,"method":"ping"}]`,
			[]answer{dup("7"), dup("7"), {"8", "mcp_rpc_batch_malformed"}}},
		{"string ids spelled two ways", `[{"jsonrpc":"2.0","id":"1","method":"ping"},{"jsonrpc":"2.0","id":"\u0031","method":"ping"}]`,
			[]answer{dup(`"1"`), dup(`"1"`)}},
		{"with a notification", `[{"jsonrpc":"2.0","id":9,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/whatever"},{"jsonrpc":"2.0","id":9,"method":"ping"}]`,
			[]answer{dup("9"), dup("9")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, hdr, body := e.rawPost(t, tc.body, h)
			if status != 400 || !strings.HasPrefix(hdr.Get("Content-Type"), "application/json") {
				t.Fatalf("%d %s\n%s", status, hdr.Get("Content-Type"), body)
			}
			answers := batchAnswers(t, hdr.Get("Content-Type"), body)
			if len(answers) != len(tc.want) {
				t.Fatalf("%d answers, want %d: %s", len(answers), len(tc.want), body)
			}
			for i, a := range answers {
				id, code, key, message := rpcBody(t, toJSON(a))
				if toJSON(id) != tc.want[i].id || code != -32600 || key != tc.want[i].key || message == "" || strings.HasPrefix(message, "error.") {
					t.Fatalf("answer %d: id %v code %d key %s message %q; want %+v", i, toJSON(id), code, key, message, tc.want[i])
				}
				if key == "mcp_rpc_batch_duplicate_id" && !strings.Contains(message, tc.want[i].id) {
					t.Fatalf("the message does not name the id %s: %q", tc.want[i].id, message)
				}
			}
		})
	}
	// 1 and "1" are two ids: both run.
	status, hdr, body := e.rawPost(t, `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":"1","method":"ping"}]`, h)
	if status != 200 {
		t.Fatalf("ids 1 and \"1\": %d %s", status, body)
	}
	got := map[string]bool{}
	for _, a := range batchAnswers(t, hdr.Get("Content-Type"), body) {
		if a["result"] == nil {
			t.Fatalf("not a result: %v", a)
		}
		got[toJSON(a["id"])] = true
	}
	if !got["1"] || !got[`"1"`] {
		t.Fatalf("ids 1 and \"1\": %s", body)
	}
	// The session went on.
	if status, _, body := e.rawPost(t, `{"jsonrpc":"2.0","id":30,"method":"tools/list"}`, h); status != 200 || !strings.Contains(body, "memory_search") {
		t.Fatalf("tools/list: %d %s", status, body)
	}
}

// A call to a method this server does not have is answered -32601 beside the rest of its
// batch, which runs, as over stdio: the whole batch was refused (400, every other call
// answered "another message in this batch is malformed"). Both kinds of session.
func TestHTTPBatchUnknownMethodAnsweredBesideTheRest(t *testing.T) {
	e := newHTTP(t, t.TempDir(), mcp.Config{})
	for _, accept := range []string{"application/json", "application/json, text/event-stream"} {
		h := e.batchSession(t, accept)
		for _, tc := range []struct {
			name, body string
			ran        []string // ids answered with a result
			missing    []string // ids answered -32601
		}{
			{"an unknown method and a call", `[{"jsonrpc":"2.0","id":7,"method":"nope/method"},{"jsonrpc":"2.0","id":8,"method":"ping"}]`, []string{"8"}, []string{"7"}},
			{"with an unknown notification", `[{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":9,"method":"nope"},{"jsonrpc":"2.0","id":10,"method":"ping"}]`, []string{"10"}, []string{"9"}},
			{"unknown methods only", `[{"jsonrpc":"2.0","id":11,"method":"nope"},{"jsonrpc":"2.0","id":"b","method":"nope/two"}]`, nil, []string{"11", `"b"`}},
			{"beside a known notification", `[{"jsonrpc":"2.0","id":12,"method":"nope"},{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}]`, nil, []string{"12"}},
		} {
			t.Run(accept+"/"+tc.name, func(t *testing.T) {
				status, hdr, body := e.rawPost(t, tc.body, h)
				if status != 200 {
					t.Fatalf("status %d: %s", status, body)
				}
				got := map[string]map[string]any{}
				for _, a := range batchAnswers(t, hdr.Get("Content-Type"), body) {
					got[string(mustMarshal(a["id"]))] = a
				}
				if len(got) != len(tc.ran)+len(tc.missing) {
					t.Fatalf("answers %v, want %v and %v", body, tc.ran, tc.missing)
				}
				for _, id := range tc.ran {
					if a, ok := got[id]; !ok || a["error"] != nil {
						t.Fatalf("call %s: %v (%s)", id, a, body)
					}
				}
				for _, id := range tc.missing {
					a, ok := got[id]
					er, _ := a["error"].(map[string]any)
					if !ok || er == nil || er["code"] != float64(-32601) {
						t.Fatalf("unknown method %s: %v (%s)", id, a, body)
					}
				}
			})
		}
	}
}

func mustMarshal(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// A batch runs only in a session whose negotiated version has batches: in a 2025-06-18 session
// it ran when the Mcp-Protocol-Version header was left out (the SDK reads 2025-03-26) or named
// 2025-03-26. Each call is refused with its id; a header that disagrees with the session's
// version is refused in a session of either kind.
func TestHTTPBatchFollowsTheNegotiatedVersion(t *testing.T) {
	e := newHTTP(t, t.TempDir(), mcp.Config{})
	h := map[string]string{"Content-Type": "application/json", "Accept": "application/json"}
	code, hdr, body := e.rawPost(t, strings.Replace(initialize, "2025-03-26", "2025-06-18", 1), h)
	if code != 200 || hdr.Get("Mcp-Session-Id") == "" || !strings.Contains(body, `"2025-06-18"`) {
		t.Fatalf("initialize: %d %s", code, body)
	}
	h["Mcp-Session-Id"] = hdr.Get("Mcp-Session-Id")
	if code, _, body := e.rawPost(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, h); code != 202 {
		t.Fatalf("initialized: %d %s", code, body)
	}
	old := e.batchSession(t, "application/json")
	const batch = `[{"jsonrpc":"2.0","id":5,"method":"tools/list"},{"jsonrpc":"2.0","id":6,"method":"ping"}]`
	for _, tc := range []struct {
		name    string
		session map[string]string
		header  string
		key     string // "" when the batch runs
	}{
		{"2025-06-18 without a header", h, "", "mcp_rpc_batch_unsupported"},
		{"2025-06-18 saying 2025-03-26", h, "2025-03-26", "mcp_protocol_version_mismatch"},
		{"2025-06-18 saying so", h, "2025-06-18", "mcp_rpc_batch_unsupported"},
		{"2025-03-26 saying 2025-06-18", old, "2025-06-18", "mcp_protocol_version_mismatch"},
		{"2025-03-26 without a header", old, "", ""},
		{"2025-03-26 saying so", old, "2025-03-26", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hh := map[string]string{}
			for k, v := range tc.session {
				hh[k] = v
			}
			hh["Mcp-Protocol-Version"] = tc.header
			status, rh, body := e.rawPost(t, batch, hh)
			answers := batchAnswers(t, rh.Get("Content-Type"), body)
			if len(answers) != 2 {
				t.Fatalf("%d %s", status, body)
			}
			for _, a := range answers {
				errObj, _ := a["error"].(map[string]any)
				switch {
				case tc.key == "" && (status != 200 || a["result"] == nil):
					t.Fatalf("the batch did not run: %d %s", status, body)
				case tc.key != "" && (status != 400 || errObj == nil || errObj["data"].(map[string]any)["code"] != tc.key):
					t.Fatalf("want %s for each call, got %d %s", tc.key, status, body)
				}
			}
		})
	}
}
