package extraction

import (
	"context"
	"testing"

	"engram/backend/llm"
)

// failingClient is a configured model that fails every call with err.
type failingClient struct{ err error }

func (c failingClient) Complete(context.Context, llm.Request) (llm.Response, error) {
	return llm.Response{}, c.err
}
func (failingClient) Provider() string { return "scripted" }
func (failingClient) Model() string    { return "scripted-model" }

// A configured model that fails (a refused key here) does not lose the turn: the offline
// extractor plans it, and the run says the model failed and why. A run called off (a newer
// turn, the session deleted) is not planned at all.
func TestModelFailurePlansOffline(t *testing.T) {
	refused := &llm.Error{Code: llm.CodeAuthFailed, Args: map[string]any{"Status": 401}, Msg: "the provider refused the key"}
	p := ModelOrOffline{Model: func() (llm.Client, error) { return failingClient{err: refused}, nil }, Offline: NewOffline()}
	f := newFx(t, p)
	d := f.run(turn("s1", "Remember that I always use zsh as my shell."))
	if d.Status != StatusDone || len(d.Report.Applied) == 0 {
		t.Fatalf("run %+v, want the offline extractor's memory", d.RunSummary)
	}
	if !d.Report.PlannedOffline || d.Report.ErrorCode != llm.CodeAuthFailed || d.Model != "offline" {
		t.Fatalf("report %+v, want planned offline with the model's failure", d.Report)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p2 := ModelOrOffline{Model: func() (llm.Client, error) { return failingClient{err: context.Canceled}, nil }, Offline: NewOffline()}
	if out, err := p2.Plan(ctx, Input{}); err == nil || out.ModelError != nil {
		t.Fatalf("a cancelled run was planned offline: %+v %v", out, err)
	}
}
