package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"engram/backend/llm/llmtest"
)

// One session id used from two projects (a Claude Code session that moved, an MCP session's
// agent in another folder): the turns recorded in project A are never handed to an extraction
// in project B. The session kept only the workdir it was first seen with and its stored turns
// had no project, so B's run took A's turns as "earlier turns" into the model's prompt. The
// model here is a real OpenAI-wire server on 127.0.0.1; what it received is the prompt.
func TestSessionInTwoProjectsKeepsTurnsApart(t *testing.T) {
	h := newHome(t)
	srv := llmtest.NewOpenAI(t)
	h.configure(srv, "gpt-4o-mini")
	projA, projB := t.TempDir(), t.TempDir()
	turn := func(workdir, user, answer, id string) string {
		b, _ := json.Marshal(map[string]any{"session_id": "moving-1", "agent": "claude-code", "workdir": workdir,
			"messages": []map[string]string{{"role": "user", "content": user, "id": id + "u"},
				{"role": "assistant", "content": answer, "id": id + "a"}}})
		return string(b)
	}
	const aUser = "The alpha service in this repository deploys with Helm chart zircon-tulip."
	const aAnswer = "Understood, the alpha deploys use the zircon-tulip chart."
	const bUser = "In this repository we format every Python file with ruff before committing."
	const bAnswer = "Noted, ruff formatting before each commit here."
	srv.Push(llmtest.Call("SubmitMemoryPlan", `{"status":"noop","items":[]}`))
	if code, out, errs := h.run(turn(projA, aUser, aAnswer, "t1"), "extract", "-", "--json"); code != 0 {
		t.Fatalf("project A: %d %s %s", code, out, errs)
	}
	srv.Push(llmtest.Call("SubmitMemoryPlan", `{"status":"noop","items":[]}`))
	if code, out, errs := h.run(turn(projB, bUser, bAnswer, "t2"), "extract", "-", "--json"); code != 0 {
		t.Fatalf("project B: %d %s %s", code, out, errs)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model calls, want one per project", len(reqs))
	}
	if !strings.Contains(string(reqs[0].Raw), "zircon-tulip") {
		t.Fatalf("project A's prompt lacks its own turn: %s", reqs[0].Raw)
	}
	b := string(reqs[1].Raw)
	if !strings.Contains(b, "ruff") {
		t.Fatalf("project B's prompt lacks its own turn: %s", b)
	}
	if strings.Contains(b, "zircon") {
		t.Fatalf("project B's prompt holds project A's turns: %s", b)
	}
	// A person still sees the whole session, each message with the project it came from.
	var detail struct {
		Turns []struct {
			Content    string `json:"content"`
			ProjectKey string `json:"project_key"`
		} `json:"turns"`
	}
	if err := json.Unmarshal([]byte(h.ok("sessions", "show", "moving-1", "--json")), &detail); err != nil {
		t.Fatal(err)
	}
	if len(detail.Turns) != 4 || detail.Turns[0].ProjectKey == "" || detail.Turns[0].ProjectKey == detail.Turns[2].ProjectKey {
		t.Fatalf("session turns %+v: want all four, A's and B's under their own projects", detail.Turns)
	}
	if out := h.ok("sessions", "show", "moving-1"); strings.Count(out, "[Recorded in ") != 2 || strings.Contains(out, "[Recorded in "+projA) {
		t.Fatalf("sessions show does not say which messages are another project's:\n%s", out)
	}
}

// A message over 16 KiB is stored cut (memory.MaxTurnContent); the run's window took that
// stored copy for an earlier turn (it matched the request's own message by its whole text),
// so the model saw the person's long message twice, once marked as planned before. And a
// pasted log of megabytes is read only as far as the gates and the window need.
func TestLongMessageIsInThePromptOnce(t *testing.T) {
	h := newHome(t)
	srv := llmtest.NewOpenAI(t)
	h.configure(srv, "gpt-4o-mini")
	long := "Remember that our staging cluster is called quartz-heron. Here is the log:\n" +
		strings.Repeat("INFO request served in 12ms\n", 3<<20/28) + "The deploy failed at the end with exit code 7."
	b, _ := json.Marshal(map[string]any{"session_id": "long-1", "agent": "claude-code",
		"messages": []map[string]string{{"role": "user", "content": long}}})
	srv.Push(llmtest.Call("SubmitMemoryPlan", `{"status":"noop","items":[]}`))
	if code, out, errs := h.run(string(b), "extract", "-", "--json"); code != 0 {
		t.Fatalf("%d %s %s", code, out, errs)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d model calls", len(reqs))
	}
	var prompt string
	for _, m := range reqs[0].Messages() {
		if c, _ := m["content"].(string); m["role"] == "user" {
			prompt += c
		}
	}
	if n := strings.Count(prompt, "quartz-heron"); n != 1 || strings.Count(prompt, "<user-turn") != 1 {
		t.Fatalf("the long message is in the prompt %d times:\n%s", n, prompt)
	}
	if !strings.Contains(prompt, "exit code 7") {
		t.Fatalf("the message's end is not in the prompt:\n%s", prompt)
	}
}
