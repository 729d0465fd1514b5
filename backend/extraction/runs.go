package extraction

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"engram/backend/memory"
)

// Run statuses.
const (
	StatusQueued  = "queued"  // waiting behind the session's running run (coalesced)
	StatusRunning = "running" // planning or applying
	StatusDone    = "done"    // every proposed item applied
	StatusPartial = "partial" // some items applied, some were refused
	StatusNoop    = "noop"    // nothing applied; Reason says why
	StatusSkipped = "skipped" // a gate stopped the request; Reason is the skip reason
	StatusFailed  = "failed"  // the planner or the store failed, timed out or was cancelled
)

// Failure reasons.
const (
	FailTimeout     = "timeout"
	FailCanceled    = "canceled"
	FailPlanner     = "planner-error"
	FailContext     = "context-error"
	FailApply       = "apply-error"
	FailInterrupted = "interrupted"
)

// ReportVersion is the version of the report JSON stored with each run.
const ReportVersion = 1

// AppliedItem is a plan item that reached the store.
type AppliedItem struct {
	Index          int               `json:"index"`
	Action         string            `json:"action"`
	ID             string            `json:"id"`
	Slug           string            `json:"slug"`
	Scope          memory.Scope      `json:"scope"`
	Type           memory.Type       `json:"type"`
	Title          string            `json:"title"`
	Confidence     memory.Confidence `json:"confidence"`
	AutoDowngraded bool              `json:"auto_downgraded"`
	// Warnings say what was changed on the way (quote-not-in-turn, invalid-relation, the
	// store's warnings).
	Warnings []Warning `json:"warnings,omitempty"`
}

// Warning is a note on an applied item; Message is translated when read (by the api).
type Warning struct {
	Code    string         `json:"code"`
	Args    map[string]any `json:"args,omitempty"`
	Message string         `json:"message,omitempty"`
}

// Report is what a run did, stored as JSON with its row.
type Report struct {
	Version int `json:"version"`
	// Gate is "passed" or the skip reason.
	Gate        string          `json:"gate"`
	Turn        int             `json:"turn,omitempty"`
	Candidates  int             `json:"candidates"`
	Rejections  int             `json:"rejections"`
	Retried     bool            `json:"retried,omitempty"`
	DecodeError string          `json:"decode_error,omitempty"`
	PlanStatus  string          `json:"plan_status,omitempty"`
	Applied     []AppliedItem   `json:"applied"`
	Rejected    []RejectedItem  `json:"rejected"`
	Profile     []ProfileSignal `json:"profile,omitempty"`
	Error       string          `json:"error,omitempty"`
	// ErrorCode and ErrorArgs name the failure (the model's, when it is a model's: a refused
	// key, a limit, a timeout) so it reads in words, not as "the model could not be reached".
	ErrorCode string         `json:"error_code,omitempty"`
	ErrorArgs map[string]any `json:"error_args,omitempty"`
	// PlannedOffline: the model failed, and the offline extractor planned the turn instead
	// (ErrorCode says why the model failed).
	PlannedOffline bool `json:"planned_offline,omitempty"`
	ProjectPin     bool `json:"project_pin,omitempty"`
	FileEvidence   bool `json:"file_evidence,omitempty"`
	// Covered holds the ContentHash of the person's messages the run planned as new (replan.go):
	// a message only failed runs covered is planned again by the next run that sees it.
	Covered []string `json:"covered,omitempty"`
}

// RunSummary is one run as lists show it.
type RunSummary struct {
	ID      string `json:"id"`
	Session string `json:"session"`
	Agent   string `json:"agent"`
	Workdir string `json:"workdir,omitempty"`
	Status  string `json:"status"`
	// Reason is the skip, noop or failure reason ("" for done and partial).
	Reason string `json:"reason,omitempty"`
	// StatusText and ReasonText are the status and reason translated (filled by the api).
	StatusText   string     `json:"status_text,omitempty"`
	ReasonText   string     `json:"reason_text,omitempty"`
	StartedAt    time.Time  `json:"started_at"`
	FinishedAt   *time.Time `json:"finished_at,omitempty"`
	Model        string     `json:"model,omitempty"`
	InputTokens  int        `json:"input_tokens"`
	OutputTokens int        `json:"output_tokens"`
	Applied      int        `json:"applied"`
	Rejected     int        `json:"rejected"`
}

// RunDetail is a run with its report.
type RunDetail struct {
	RunSummary
	Report Report `json:"report"`
}

// RunsParams page through the runs, newest first.
type RunsParams struct {
	Session string `json:"session,omitempty"`
	Status  string `json:"status,omitempty"`
	Limit   int    `json:"limit,omitempty"`
	Offset  int    `json:"offset,omitempty"`
}

// RunsResult is one page of runs with the total.
type RunsResult struct {
	Runs  []RunDetail `json:"runs"`
	Total int         `json:"total"`
}

// run is one request's life in this process.
type run struct {
	mu          sync.Mutex // held across each write of the row, so the newest state lands last
	detail      RunDetail
	hash        string
	prevHash    string // the session's covered message before this run claimed its own
	req         Request
	done        chan struct{}
	cancel      context.CancelFunc
	ctx         context.Context
	written     []string // slugs earlier runs wrote from the turns this run covers
	planned     []string // ContentHash of window messages earlier runs planned
	wrote       []string // slugs this run wrote
	turnsHashes []string // hashes of the user messages in the run's window
}

func (r *run) snapshot() RunDetail {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.detail
}

func (r *run) row() memory.ExtractionRun {
	d := r.detail
	if d.Report.Applied == nil {
		d.Report.Applied = []AppliedItem{}
	}
	if d.Report.Rejected == nil {
		d.Report.Rejected = []RejectedItem{}
	}
	raw, _ := json.Marshal(d.Report)
	return memory.ExtractionRun{ID: d.ID, Session: d.Session, Agent: d.Agent, Workdir: d.Workdir, Status: d.Status,
		SkipReason: d.Reason, StartedAt: d.StartedAt, FinishedAt: d.FinishedAt, Model: d.Model,
		ItemsApplied: d.Applied, ItemsRejected: d.Rejected, InputTokens: d.InputTokens, OutputTokens: d.OutputTokens,
		MessageHash: r.hash, Report: string(raw)}
}

// detailOf reads a stored row; a report that does not parse leaves the head of the row.
func detailOf(e memory.ExtractionRun) RunDetail {
	d := RunDetail{RunSummary: RunSummary{ID: e.ID, Session: e.Session, Agent: e.Agent, Workdir: e.Workdir,
		Status: e.Status, Reason: e.SkipReason, StartedAt: e.StartedAt, FinishedAt: e.FinishedAt, Model: e.Model,
		InputTokens: e.InputTokens, OutputTokens: e.OutputTokens, Applied: e.ItemsApplied, Rejected: e.ItemsRejected}}
	_ = json.Unmarshal([]byte(e.Report), &d.Report)
	if d.Report.Applied == nil {
		d.Report.Applied = []AppliedItem{}
	}
	if d.Report.Rejected == nil {
		d.Report.Rejected = []RejectedItem{}
	}
	return d
}

// Runs lists recorded runs, newest first.
func (s *Service) Runs(ctx context.Context, p RunsParams) (RunsResult, error) {
	rows, total, err := s.o.Store.ExtractionRuns(ctx, memory.ExtractionRunFilter{Session: p.Session, Status: p.Status,
		Limit: p.Limit, Offset: p.Offset})
	if err != nil {
		return RunsResult{}, err
	}
	out := RunsResult{Runs: make([]RunDetail, 0, len(rows)), Total: total}
	for _, r := range rows {
		out.Runs = append(out.Runs, detailOf(r))
	}
	return out, nil
}

// Run returns one recorded run.
func (s *Service) Run(ctx context.Context, id string) (RunDetail, error) {
	row, ok, err := s.o.Store.ExtractionRunByID(ctx, id)
	if err != nil {
		return RunDetail{}, err
	}
	if !ok {
		return RunDetail{}, codeErr(CodeRunNotFound, map[string]any{"ID": id}, "no extraction run %s", id)
	}
	return detailOf(row), nil
}
