package organizer

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"engram/backend/llm"
	"engram/backend/memory"
	"engram/backend/prompts"
)

// scriptedModel is an in-process llm.Client: every request is recorded and answered by the
// test's function (the wire-level fake lives in llm/llmtest).
type scriptedModel struct {
	mu   sync.Mutex
	reqs []llm.Request
	fn   func(ctx context.Context, req llm.Request) (llm.Response, error)
}

func (m *scriptedModel) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	m.mu.Lock()
	m.reqs = append(m.reqs, req)
	m.mu.Unlock()
	return m.fn(ctx, req)
}

func (m *scriptedModel) Provider() string { return "scripted" }
func (m *scriptedModel) Model() string    { return "test-model" }

// requests returns the recorded requests of one purpose.
func (m *scriptedModel) requests(purpose string) []llm.Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []llm.Request
	for _, r := range m.reqs {
		if r.Purpose == purpose {
			out = append(out, r)
		}
	}
	return out
}

// Every scripted answer costs this much.
var callUsage = llm.Usage{InputTokens: 100, OutputTokens: 10}

// callReply answers with one call of tool; args is raw JSON when it is a string.
func callReply(tool string, args any) (llm.Response, error) {
	raw, ok := args.(string)
	if !ok {
		b, err := json.Marshal(args)
		if err != nil {
			return llm.Response{}, err
		}
		raw = string(b)
	}
	return llm.Response{ToolCalls: []llm.ToolCall{{ID: "call-1", Name: tool, Arguments: json.RawMessage(raw)}},
		Usage: callUsage, Provider: "scripted", Model: "test-model", StopReason: "tool_use"}, nil
}

// textReply answers without any tool call.
func textReply(text string) (llm.Response, error) {
	return llm.Response{Text: text, Usage: callUsage, Provider: "scripted", Model: "test-model", StopReason: "end_turn"}, nil
}

// promptIDs returns the ids of the memories a prompt shows in its first data block (the
// scope to cluster, or the cluster to plan).
func promptIDs(t *testing.T, req llm.Request) []string {
	t.Helper()
	if len(req.Messages) == 0 {
		t.Fatal("a request without messages")
	}
	text := req.Messages[len(req.Messages)-1].Content
	start := strings.Index(text, prompts.OrganizerDataHeader)
	if start < 0 {
		t.Fatalf("no data block in %q", text)
	}
	body := text[start+len(prompts.OrganizerDataHeader):]
	body = body[:strings.Index(body, prompts.OrganizerDataFooter)]
	var ids []string
	for _, line := range strings.Split(strings.TrimSpace(body), "\n") {
		var v struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("data line %q: %v", line, err)
		}
		ids = append(ids, v.ID)
	}
	return ids
}

// newLLMEnv is a real store on a temporary home (quota limit when > 0) with an organizer
// whose model is m (nil: no LLM option at all).
func newLLMEnv(t *testing.T, limit int, provider LLMProvider) *env {
	t.Helper()
	e := &env{t: t, ctx: context.Background(), home: t.TempDir(), clock: newFakeClock(baseTime)}
	e.store = e.openStore(limit)
	e.svc = e.newService(e.store, func(o *Options) { o.LLM = provider })
	return e
}

func provide(m llm.Client) LLMProvider { return func() (llm.Client, error) { return m, nil } }

// notConfigured is the llm package's "no model" error as the organizer sees it: coded.
type notConfigured struct{}

func (notConfigured) Error() string             { return "llm: unable to call a model: none is configured" }
func (notConfigured) ErrorCode() string         { return llm.CodeNotConfigured }
func (notConfigured) ErrorArgs() map[string]any { return nil }

var errBroken = errors.New("llm: unable to reach http://127.0.0.1:1/v1: connection refused")

// corpus writes twelve unreviewed global entries (three duplicate pairs among them), one
// reviewed global entry and a project copy of dark-mode, and returns ids by slug (the
// project's as "project/<slug>").
func corpus(e *env) map[string]string {
	ids := dupes(e)
	more := []memory.Item{
		item("uses-vim", "Uses Vim", "The user edits config files in Vim."),
		item("tabs", "Tabs", "Indent with tabs in Go code, spaces in YAML."),
		item("cat-name", "Cat", "The user's cat is called Miso."),
		item("tea-time", "Tea", "Green tea at four in the afternoon."),
	}
	for k, v := range e.write(memory.ActorExtractor, more...) {
		ids[k] = v
	}
	home := item("home-city", "Home city", "The user's home city is Lisbon.")
	for k, v := range e.write(memory.ActorUser, home) {
		ids[k] = v
	}
	p := item("dark-mode", "Dark mode", "User prefers dark mode in every editor.")
	p.Scope, p.Workdir, p.Type = memory.ScopeProject, "/work/demo", memory.TypeProject
	for k, v := range e.write(memory.ActorExtractor, p) {
		ids["project/"+k] = v
	}
	return ids
}

// decisionsIn lists the decisions of one bucket.
func decisionsIn(rep *Report, bucket string) []Decision {
	var out []Decision
	for _, d := range rep.Decisions {
		if d.Bucket == bucket {
			out = append(out, d)
		}
	}
	return out
}
