package organizer

import (
	"context"
	"errors"
	"testing"

	"engram/backend/llm"
	"engram/backend/llm/llmtest"
	"engram/backend/prompts"
)

// TestLLMCutAnswerIsSaid: an answer cut at its token limit (finish_reason "length",
// stop_reason "max_tokens") left its SubmitMemoryOrganizePlan arguments half-written, and the
// run said "could not be used: unexpected end of JSON input"; a reasoning model that spent the
// limit thinking and called nothing was asked again, cut again, and said "did not submit its
// answer". Both now say the answer was cut at its limit (the cut call is not asked again: it
// would be cut again). A whole call with a "length" stop still counts. Over both real wires,
// streamed and not (loopback server).
func TestLLMCutAnswerIsSaid(t *testing.T) {
	half := `{"decisions":[{"action":"delete","ids":["01A"],"confidence":0.9,"reason":"dup`
	for _, wire := range []string{llm.ProviderOpenAI, llm.ProviderAnthropic} {
		for _, streaming := range []bool{false, true} {
			stop := map[string]string{llm.ProviderOpenAI: "length", llm.ProviderAnthropic: "max_tokens"}[wire]
			for _, tc := range []struct {
				name    string
				replies []llmtest.Reply
				code    string
				calls   int
			}{
				{"cut call", []llmtest.Reply{{ToolCalls: []llmtest.ToolCall{{Name: prompts.OrganizerPlanTool, Arguments: half}}, StopReason: stop}}, CodeLLMCut, 1},
				{"cut while thinking", []llmtest.Reply{{Text: "Let me think about each memory in turn", StopReason: stop},
					{Text: "Let me think about each memory again", StopReason: stop}}, CodeLLMCut, 2},
				{"whole call", []llmtest.Reply{{ToolCalls: []llmtest.ToolCall{{Name: prompts.OrganizerPlanTool,
					Arguments: `{"decisions":[{"action":"keep","ids":["01A"],"confidence":0.9,"reason":"fine"}]}`}}, StopReason: stop}}, "", 1},
			} {
				t.Run(wire+"/"+tc.name, func(t *testing.T) {
					srv := llmtest.NewOpenAI(t)
					if wire == llm.ProviderAnthropic {
						srv = llmtest.NewAnthropic(t)
					}
					srv.Push(tc.replies...)
					client, err := llm.New(llm.Config{Provider: wire, BaseURL: srv.URL(), Model: "m", Streaming: streaming}, "", nil)
					if err != nil {
						t.Fatal(err)
					}
					_, err = (&LLMPlanner{Client: client, MaxTokens: 512}).Plan(context.Background(), planInput())
					if CodeOf(err) != tc.code || len(srv.Requests()) != tc.calls {
						t.Fatalf("Plan = %v after %d calls, want %q after %d", err, len(srv.Requests()), tc.code, tc.calls)
					}
					if tc.code != "" {
						var e *Error
						if !errors.As(err, &e) || e.Args["Max"] != 512 {
							t.Fatalf("the error should name the limit: %#v", err)
						}
					}
				})
			}
		}
	}
}

// TestLLMPlanEndedByDoneWithoutFinishReason: an OpenAI-compatible server that ends a whole
// streamed plan with [DONE] but no finish_reason had the plan refused as cut; the plan is now
// used. Half a plan followed by [DONE] is still refused (the model failed, asked once).
func TestLLMPlanEndedByDoneWithoutFinishReason(t *testing.T) {
	whole := `{"decisions":[{"action":"keep","ids":["01A"],"confidence":0.9,"reason":"fine"}]}`
	half := `{"decisions":[{"action":"delete","ids":["01A"],"confidence":0.9,"reason":"dup`
	for _, tc := range []struct {
		name string
		args string
		code string
	}{
		{"whole plan", whole, ""},
		{"half a plan", half, llm.CodeBadResponse},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewOpenAI(t)
			srv.Push(llmtest.Call(prompts.OrganizerPlanTool, tc.args).WithoutFinishReason())
			client, err := llm.New(llm.Config{Provider: llm.ProviderOpenAI, BaseURL: srv.URL(), Model: "m", Streaming: true}, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			plan, err := (&LLMPlanner{Client: client, MaxTokens: 512}).Plan(context.Background(), planInput())
			if CodeOf(err) != tc.code || len(srv.Requests()) != 1 {
				t.Fatalf("Plan = %v after %d calls, want %q after 1", err, len(srv.Requests()), tc.code)
			}
			if tc.code == "" && len(plan.Proposals) != 1 {
				t.Fatalf("plan %+v, want its one decision", plan)
			}
		})
	}
}

// TestLLMFailureKeepsTheModelsCode: a cluster whose model could not be reached recorded
// organizer_llm_failed with the Go error chain as its detail ("llm: unable to reach …: Post
// …: dial tcp …"), English in every language. It now keeps the model client's own code and
// arguments (llm_unreachable with the address), which every client translates; a failure
// that carries no code stays organizer_llm_failed.
func TestLLMFailureKeepsTheModelsCode(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	url := srv.URL()
	srv.Close() // nothing answers there any more
	client, err := llm.New(llm.Config{Provider: llm.ProviderOpenAI, BaseURL: url, Model: "m"}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = (&LLMPlanner{Client: client}).Plan(context.Background(), planInput())
	re := runErrorOf(err)
	if re == nil || re.Code != llm.CodeUnreachable || re.Args["URL"] != url || re.Args["Detail"] == nil {
		t.Fatalf("run error %+v, want %s naming %s", re, llm.CodeUnreachable, url)
	}
	if got := runErrorOf(llmFailure(errors.New("a plain failure"))); got.Code != CodeLLMFailed {
		t.Fatalf("an uncoded failure: %+v", got)
	}
}
