package recall

import (
	"encoding/json"
	"testing"

	"engram/backend/memory"
)

// include_history returns past messages of the caller's own sessions in its project, and
// nothing of another agent's or another project's conversations, whatever the call asks.
func TestSearchIncludeHistoryIsolation(t *testing.T) {
	e := newEnv(t)
	p1, p2 := t.TempDir(), t.TempDir()
	record := func(agent, id, wd, text string) {
		if _, err := e.store.RecordSession(e.ctx, memory.SessionRecord{Agent: agent, Session: id, Workdir: wd,
			Turns: []memory.TurnInput{{Role: "user", Content: text}}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	record("claude-code", "mine", p1, "the staging database is called kestrel")
	record("claude-code", "other-project", p2, "kestrel lives in the other project too")
	record("codex", "other-agent", p1, "codex heard about kestrel as well")
	record("claude-code", "no-project", "", "kestrel without a project")
	history := func(env ToolEnv, args string) []HistoryTurn {
		t.Helper()
		r := call(t, e, env, args)
		if !r.OK {
			t.Fatalf("%s: %+v", args, r.Error)
		}
		b, _ := json.Marshal(r.Result)
		var out struct {
			History []HistoryTurn `json:"history"`
			Note    string        `json:"note"`
		}
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		return out.History
	}
	sessions := func(hs []HistoryTurn) []string {
		var out []string
		for _, h := range hs {
			out = append(out, h.Session)
		}
		return out
	}
	cc := ToolEnv{Agent: "claude-code", Workdir: p1}
	for _, tc := range []struct {
		name string
		env  ToolEnv
		args string
		want []string
	}{
		{"own session in own project", cc, `{"action":"search","query":"kestrel staging","include_history":true}`, []string{"mine"}},
		{"narrowed to the project", cc, `{"action":"search","query":"kestrel","scope":"project","include_history":true}`, []string{"mine"}},
		{"narrowed to global: sessions are never global", cc, `{"action":"search","query":"kestrel","scope":"global","include_history":true}`, nil},
		{"without include_history", cc, `{"action":"search","query":"kestrel"}`, nil},
		{"other agent, same project", ToolEnv{Agent: "codex", Workdir: p1}, `{"action":"search","query":"kestrel","include_history":true}`, []string{"other-agent"}},
		{"same agent, other project", ToolEnv{Agent: "claude-code", Workdir: p2}, `{"action":"search","query":"kestrel","include_history":true}`, []string{"other-project"}},
		{"same agent, no project", ToolEnv{Agent: "claude-code"}, `{"action":"search","query":"kestrel","include_history":true}`, []string{"no-project"}},
		{"no agent sees no session", ToolEnv{Workdir: p1}, `{"action":"search","query":"kestrel","include_history":true}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := sessions(history(tc.env, tc.args))
			if len(got) != len(tc.want) || (len(got) > 0 && got[0] != tc.want[0]) {
				t.Fatalf("sessions %v, want %v", got, tc.want)
			}
		})
	}
	// Asking for another project's history is refused like any other widening.
	r := call(t, e, cc, `{"action":"search","query":"kestrel","workdir":"`+p2+`","include_history":true}`)
	if r.OK || r.Error.Code != CodeScopeNotVisible {
		t.Fatalf("other workdir: %+v", r)
	}
	// Summaries of compacted messages are searched too.
	var turns []memory.TurnInput
	for i := 0; i < memory.SessionCompactAt+1; i++ {
		turns = append(turns, memory.TurnInput{Role: "user", Content: "filler"})
	}
	turns[0].Content = "the release train leaves on thursdays"
	if _, err := e.store.RecordSession(e.ctx, memory.SessionRecord{Agent: "claude-code", Session: "long", Workdir: p1, Turns: turns}, nil); err != nil {
		t.Fatal(err)
	}
	hs := history(cc, `{"action":"search","query":"release train","include_history":true}`)
	if len(hs) != 1 || hs[0].Session != "long" || hs[0].Role != "summary" || hs[0].Seq != 0 {
		t.Fatalf("summary hit %+v", hs)
	}
}

func TestSessionsVisible(t *testing.T) {
	wd := t.TempDir()
	v, err := NewVisibility(Caller{Workdir: wd, Agent: "a"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	key := memory.ProjectKey(v.Workdir())
	if !v.SessionsVisible("a", key) || v.SessionsVisible("b", key) || v.SessionsVisible("a", "") || v.SessionsVisible("a", "0123456789abcdef") {
		t.Fatal("project caller")
	}
	g, _ := v.Narrow(memory.ScopeGlobal, "", "")
	if g.SessionsVisible("a", key) {
		t.Fatal("a global view sees sessions")
	}
	var none Visibility
	if none.SessionsVisible("", "") {
		t.Fatal("the zero view sees sessions")
	}
}
