package organizer

import (
	"testing"

	"engram/backend/llm"
	"engram/backend/llm/llmtest"
	"engram/backend/memory"
	"engram/backend/prompts"
)

// TestRunStopsAskingAModelThatFailedForGood: a run over a full scope asked a provider that had
// refused its key once per group — 64 refused calls, 63 identical lines in the report — and a
// model timing out would have cost two minutes per group. Now a persistent failure (a refused
// key, no credit left) stops the run asking: the groups after it are planned offline without
// a call, each saying so (organizer_llm_stopped, naming the group the model failed on), while
// the groups before it keep the model's plan. Over the loopback OpenAI server; three scopes of
// one group each (agent, global, project — planned in that order).
func TestRunStopsAskingAModelThatFailedForGood(t *testing.T) {
	for _, tc := range []struct {
		name    string
		replies []llmtest.Reply
		code    string // the failure, on the group of failAt
		failAt  int
	}{
		{"key refused at once", []llmtest.Reply{llmtest.Status(401, "")}, llm.CodeAuthFailed, 0},
		{"credit runs out mid-run", []llmtest.Reply{llmtest.Call(prompts.OrganizerPlanTool, `{"decisions":[]}`),
			{Status: 402, ErrorMsg: "Insufficient Balance"}}, llm.CodeOutOfCredit, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewOpenAI(t)
			srv.Push(tc.replies...)
			client, err := llm.New(llm.Config{Provider: llm.ProviderOpenAI, BaseURL: srv.URL(), Model: "gpt-4o-mini"}, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			e := newLLMEnv(t, 0, provide(client))
			dupes(e)
			a := item("agent-note", "Agent note", "The agent keeps its build notes here.")
			a.Scope, a.Agent = memory.ScopeAgent, "claude"
			p := item("db-choice", "Database", "The project stores its data in Postgres.")
			p.Scope, p.Workdir, p.Type = memory.ScopeProject, "/work/demo", memory.TypeProject
			e.write(memory.ActorExtractor, a, p)

			det := e.run(TriggerManual)
			rep := det.Report
			if det.Status != StatusDone || len(rep.Clusters) != 3 {
				t.Fatalf("status %s, clusters %+v", det.Status, rep.Clusters)
			}
			if n := len(srv.Requests()); n != tc.failAt+1 {
				t.Fatalf("%d model calls, want %d: none after the failure", n, tc.failAt+1)
			}
			for i, c := range rep.Clusters {
				switch {
				case i < tc.failAt:
					if c.Status != ClusterOK || c.Planner != "llm" {
						t.Fatalf("group %d = %+v, want the model's plan", i, c)
					}
				case i == tc.failAt:
					if c.Status != ClusterFallback || c.Error == nil || c.Error.Code != tc.code {
						t.Fatalf("group %d = %+v (%+v), want planned offline after %s", i, c, c.Error, tc.code)
					}
				default:
					if c.Status != ClusterFallback || c.Planner != "offline" || c.Error == nil || c.Error.Code != CodeLLMStopped ||
						c.Error.Args["Group"] != rep.Clusters[tc.failAt].ID {
						t.Fatalf("group %d = %+v (%+v), want planned offline without asking", i, c, c.Error)
					}
				}
			}
			// The offline planner still merged the duplicates of the global scope.
			if rep.Counts.MergeInto == 0 {
				t.Fatalf("counts %+v: the offline planner planned nothing", rep.Counts)
			}
		})
	}
}

// TestBreakerTrips: what stops a run asking its model — a persistent failure at once, a
// timeout only when the next call times out too; a failure of one answer (bad arguments, a
// server error) never.
func TestBreakerTrips(t *testing.T) {
	for _, tc := range []struct {
		name  string
		codes []string // "" is a call that answered
		trip  bool
	}{
		{"refused key", []string{llm.CodeAuthFailed}, true},
		{"nothing at the address", []string{llm.CodeUnreachable}, true},
		{"rate limited past its retries", []string{llm.CodeRateLimited}, true},
		{"one timeout", []string{CodeLLMTimeout}, false},
		{"two timeouts in a row", []string{CodeLLMTimeout, CodeLLMTimeout}, true},
		{"timeouts apart", []string{CodeLLMTimeout, "", CodeLLMTimeout}, false},
		{"bad arguments", []string{CodeLLMBadArguments, CodeLLMBadArguments, CodeLLMCut}, false},
		{"server errors", []string{llm.CodeServerError, llm.CodeServerError}, false},
	} {
		var b breaker
		for i, c := range tc.codes {
			var e *RunError
			if c != "" {
				e = &RunError{Code: c}
			}
			b.note(string(rune('a'+i)), e)
		}
		if (b.tripped != nil) != tc.trip {
			t.Errorf("%s: tripped %+v, want %v", tc.name, b.tripped, tc.trip)
		}
	}
}
