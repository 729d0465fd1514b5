package api

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"engram/backend/memory"
)

// memory.find answers what the person typed so far: a prefix, a Chinese word, a lone Chinese
// character, nothing for a query that matches nothing; hostile strings are searched as text
// and answered, never an internal error; an over-long query is a translated invalid_query.
func TestFindThroughTable(t *testing.T) {
	a := newAPI(t, memory.ActorUser)
	for _, w := range []string{
		`{"scope":"global","type":"user","slug":"pg-note","title":"Postgres tuning","body":"Raise shared_buffers.","confidence":"low"}`,
		`{"scope":"global","type":"user","slug":"cilantro","title":"口味","body":"不吃香菜。","confidence":"low"}`,
		`{"scope":"global","type":"project","slug":"db-note","title":"数据库","body":"We said \"NEAR(x)\" and '--quoted'.","confidence":"low"}`,
	} {
		if res, err := a.Call("memory.write", json.RawMessage(w)); err != nil || !res.(ItemResult).OK {
			t.Fatalf("write %s: %v %+v", w, err, res)
		}
	}
	find := func(params string) FindResult {
		t.Helper()
		res, err := a.Call("memory.find", json.RawMessage(params))
		if err != nil {
			t.Fatalf("memory.find %s: %v", params, err)
		}
		return res.(FindResult)
	}
	slugs := func(r FindResult) string {
		var s []string
		for _, it := range r.Items {
			s = append(s, it.Slug)
		}
		return strings.Join(s, ",")
	}
	cases := []struct{ params, want string }{
		{`{"query":"pos"}`, "pg-note"},
		{`{"query":"Postgres"}`, "pg-note"},
		{`{"query":"香菜"}`, "cilantro"},
		{`{"query":"菜"}`, "cilantro"},
		{`{"query":"数据库"}`, "db-note"},
		{`{"query":"数据库","type":"user"}`, ""},
		{`{"query":"zebra"}`, ""},
		{`{"query":""}`, ""},
		{`{"query":"NEAR("}`, "db-note"},
		{`{"query":"'--"}`, "db-note"},
		{`{"query":"\""}`, "db-note"},
		{`{"query":"*"}`, ""},
	}
	for _, tc := range cases {
		if got := slugs(find(tc.params)); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.params, got, tc.want)
		}
	}
	r := find(`{"query":"shared"}`)
	if r.Total != 1 || len(r.Items) != 1 || !strings.Contains(r.Items[0].Snippet, "shared_buffers") {
		t.Errorf("shared: %+v", r)
	}
	_, err := a.Call("memory.find", json.RawMessage(`{"query":"`+strings.Repeat("a", memory.FindMaxQueryBytes+1)+`"}`))
	var ae *Error
	if !errors.As(err, &ae) || ae.Code != memory.CodeInvalidQuery || !strings.Contains(ae.Message, "too long") {
		t.Errorf("over-long query: %v, want invalid_query", err)
	}
	if _, err := a.Call("memory.find", json.RawMessage(`{"query":"x","scope":"agent"}`)); !errors.As(err, &ae) || ae.Code != CodeAgentMissing {
		t.Errorf("agent scope without agent: %v", err)
	}
}
