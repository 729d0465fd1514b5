package organizer

import (
	"encoding/json"
	"fmt"
	"time"

	"engram/backend/memory"
)

// ReportVersion is the version of the typed report stored in memory_organize_runs.report.
// Readers refuse a newer version rather than misread it.
const ReportVersion = 1

// Action is what a decision proposes, as SubmitMemoryOrganizePlan names it.
type Action string

// Actions.
const (
	ActionKeep        Action = "keep"
	ActionMergeInto   Action = "merge_into"
	ActionDelete      Action = "delete"
	ActionMarkReview  Action = "mark_review"
	ActionRewriteHint Action = "rewrite_hint"
)

// Valid reports whether a is a known action.
func (a Action) Valid() bool {
	switch a {
	case ActionKeep, ActionMergeInto, ActionDelete, ActionMarkReview, ActionRewriteHint:
		return true
	}
	return false
}

// Risk is the gate's own assessment of a decision, recomputed locally whatever a planner said.
type Risk string

// Risks.
const (
	RiskLow    Risk = "low"
	RiskMedium Risk = "medium"
	RiskHigh   Risk = "high"
)

func riskRank(r Risk) int {
	switch r {
	case RiskMedium:
		return 1
	case RiskHigh:
		return 2
	}
	return 0
}

func maxRisk(a, b Risk) Risk {
	if riskRank(b) > riskRank(a) {
		return b
	}
	return a
}

// Outcome is what the gate does with a decision.
type Outcome string

// Outcomes.
const (
	// OutcomeAuto decisions are applied by the run itself.
	OutcomeAuto Outcome = "auto"
	// OutcomeQueue decisions wait in the report for a person (ApplyReport).
	OutcomeQueue Outcome = "queue"
	// OutcomeDrop decisions are invalid or not applicable; they are shown but never applied.
	OutcomeDrop Outcome = "drop"
)

// DecisionStatus is where a decision stands.
type DecisionStatus string

// Decision statuses.
const (
	DecisionPending DecisionStatus = "pending" // queued for review
	DecisionApplied DecisionStatus = "applied"
	DecisionFailed  DecisionStatus = "failed"
	DecisionDropped DecisionStatus = "dropped"
)

// Rejection buckets: why a decision was not applied by the run itself. The report counts
// decisions per bucket (report.rejection_buckets); each has an i18n key
// "organizer.bucket.<bucket>".
const (
	BucketManualReview     = "manual_review"
	BucketHighRisk         = "high_risk"
	BucketMediumRisk       = "medium_risk"
	BucketBelowConfidence  = "below_confidence"
	BucketConservativeMode = "conservative_mode"
	BucketReportOnly       = "report_only"
	BucketInvalidTarget    = "invalid_target"
	BucketConflicting      = "conflicting_decision"
	BucketBodyTooLarge     = "body_too_large"
	BucketNothingToMerge   = "nothing_to_merge"
	// A merge whose keeper would hold more aliases, tags or supersedes than a memory may
	// (memory.FieldLimits): the store would refuse the write, so the run never offers it.
	BucketFieldsTooLarge = "fields_too_large"
	// A planner's decision that failed its own checks (malformed, unknown action, confidence
	// outside 0–1, fields of another action).
	BucketInvalidProposal = "invalid_proposal"
	// A decision naming an entry of another cluster of the same scope instance.
	BucketOutsideCluster = "outside_cluster"
	// A decision naming an entry of another scope instance: a planner never widens scope.
	BucketCrossScope = "cross_scope"
	// A merge of memories of different types (user into feedback, …): a person's choice only.
	BucketCrossType = "cross_type"
	// A merge_into naming its keeper as the only memory to merge into it.
	BucketSelfMerge = "self_merge"
	// A merge whose result would lose evidence its planner said must survive.
	BucketEvidenceLost = "evidence_lost"
	// BucketDeferred: a decision beyond the most one plan of a cluster holds, left for a
	// later run (nothing done).
	BucketDeferred = "deferred"
	// BucketOversizedPlan: a decision taken from a plan over the limit, which a scheduled run
	// would have applied: it waits for a person instead.
	BucketOversizedPlan = "oversized_plan"
	// BucketRestoredByPerson: a scheduled run's change to a memory a person restored after
	// the organizer removed it, left for that person.
	BucketRestoredByPerson = "restored_by_person"
)

// Reason codes explain a decision; each has an i18n key "organizer.reason.<code>".
const (
	ReasonExactDuplicate = "exact_duplicate"
	ReasonContained      = "contained"
	ReasonSimilar        = "similar"
	ReasonSimilarGuarded = "similar_numbers_or_negation_differ"
	// ReasonKeyWordsDiffer: similar wording, but words rare in the store stand on one side
	// only (Args["Words"] names them): the two are likely about different things.
	ReasonKeyWordsDiffer = "similar_key_words_differ"
	// ReasonMeaningDiffer: similar wording, but a word that sets what it says differs
	// ("before / after", "on / off", "must / may"; Args["Words"] names them).
	ReasonMeaningDiffer = "similar_meaning_words_differ"
	// ReasonContainedChanged: every word is in the longer memory, but the longer one adds
	// words that may change what the shorter says (a negation, a number, "before", a rare
	// word inside its clause, or a clause that takes it back; Args["Words"] names them).
	ReasonContainedChanged = "contained_meaning_changed"
	// ReasonSymbolsDiffer: the same words, but a word's symbols differ (C++ / C#, -1 / 1).
	ReasonSymbolsDiffer = "same_words_symbols_differ"
	ReasonStaleLowConf  = "stale_low_confidence"
	ReasonPlanner       = "planner"
	// Why the LLM planner's own checks refused a decision (bucket invalid_proposal).
	ReasonMalformedDecision  = "malformed_decision"
	ReasonUnknownAction      = "unknown_action"
	ReasonBadConfidence      = "bad_confidence"
	ReasonBadIDs             = "bad_ids"
	ReasonMergeWithoutInto   = "merge_without_into"
	ReasonMisplacedField     = "misplaced_field"
	ReasonRewriteWithoutHint = "rewrite_without_hint"
	ReasonDeferred           = "deferred_over_limit"
)

// Reason says why a decision was proposed: a code for the UI and the arguments it names.
type Reason struct {
	Code string         `json:"code"`
	Args map[string]any `json:"args,omitempty"`
	// Text is free text from a planner (an LLM's reasoning), shown as is; empty offline.
	Text string `json:"text,omitempty"`
}

// EntryRef is one memory as the run saw it at scan time.
type EntryRef struct {
	ID         string            `json:"id"`
	Slug       string            `json:"slug"`
	Title      string            `json:"title"`
	Scope      memory.Scope      `json:"scope"`
	ScopeKey   string            `json:"scope_key"`
	Workdir    string            `json:"workdir,omitempty"`
	Agent      string            `json:"agent,omitempty"`
	Type       memory.Type       `json:"type"`
	Path       string            `json:"path"`
	Version    string            `json:"version"`
	Reviewed   bool              `json:"reviewed"`
	Confidence memory.Confidence `json:"confidence"`
}

func refOf(m *memory.Memory) EntryRef {
	return EntryRef{ID: m.ID, Slug: m.Slug, Title: m.Title, Scope: m.Scope, ScopeKey: m.ScopeKey(), Workdir: m.Workdir,
		Agent: m.Agent, Type: m.Type, Path: m.Path, Version: m.Version, Reviewed: m.Reviewed, Confidence: m.Confidence}
}

// Preserved is the evidence a merge keeps: the merged body and the union of what the merged
// entries knew, written onto the keeper before the others are deleted.
type Preserved struct {
	Body        string            `json:"body"`
	Aliases     []string          `json:"aliases"`
	Tags        []string          `json:"tags"`
	Supersedes  []string          `json:"supersedes"`
	SourceQuote string            `json:"source_quote"`
	Confidence  memory.Confidence `json:"confidence"`
	// Unreview is set when unreviewed text joins a reviewed keeper: the result goes back to
	// the review queue.
	Unreview bool `json:"unreview,omitempty"`
}

// DecisionResult is what applying a decision did. A failure carries its Code, the catalog key
// of its message (I18nKey: organizer.failure.* or error.<code>) with the Args that fill it,
// always naming the memory at fault by Slug and Title, and Message, its English text for logs
// and clients without a catalog (entryFailure).
type DecisionResult struct {
	Code    string         `json:"code,omitempty"`
	I18nKey string         `json:"i18n_key,omitempty"`
	Args    map[string]any `json:"args,omitempty"`
	Message string         `json:"message,omitempty"`
	At      time.Time      `json:"at"`
	// By is "run" for decisions the run applied itself, "review" for ApplyReport.
	By string `json:"by"`
	// Removed counts the memories this decision took out of the store (merged away, deleted).
	Removed int `json:"removed"`
	// Versions are the versions the decision left its updated memories at (a merge's keeper,
	// a mark_review's memories), by id: an undo puts back only a memory still at that version,
	// never over a change made after the run.
	Versions map[string]string `json:"versions,omitempty"`
}

// Decision is one gated proposal in a run's report.
type Decision struct {
	ID        string `json:"id"`
	ClusterID string `json:"cluster_id"`
	Action    Action `json:"action"`
	// Targets are the entries acted on; for merge_into, the ones folded into Into and deleted.
	Targets    []EntryRef `json:"targets"`
	Into       *EntryRef  `json:"into,omitempty"`
	Confidence float64    `json:"confidence"`
	Risk       Risk       `json:"risk"`
	Tier       Tier       `json:"tier,omitempty"`
	Score      float64    `json:"score,omitempty"`
	Reason     Reason     `json:"reason"`
	// Hint is the advice of a rewrite_hint decision.
	Hint string `json:"hint,omitempty"`
	// Evidence is what the planner said must survive, found verbatim in the entries (and, for
	// a merge, checked to be in its result).
	Evidence  []string   `json:"evidence,omitempty"`
	Preserved *Preserved `json:"preserved,omitempty"`
	Outcome   Outcome    `json:"outcome"`
	// Bucket is why the run did not apply it itself (empty for auto-applied decisions).
	Bucket string          `json:"bucket,omitempty"`
	Status DecisionStatus  `json:"status"`
	Result *DecisionResult `json:"result,omitempty"`
}

// Cluster statuses.
const (
	ClusterOK = "ok"
	// ClusterFallback: the model failed this cluster (Error says how) and the offline planner
	// planned it instead.
	ClusterFallback = "fallback"
	// ClusterFailed: no planner could plan it; it is isolated and the run goes on.
	ClusterFailed = "failed"
)

// ClusterReport is one cluster the planner saw.
type ClusterReport struct {
	ID  string `json:"id"`
	Key string `json:"key"`
	// Topic is the topic clusterer's label; empty for structural groups.
	Topic    string       `json:"topic,omitempty"`
	Scope    memory.Scope `json:"scope"`
	ScopeKey string       `json:"scope_key"`
	Size     int          `json:"size"`
	EntryIDs []string     `json:"entry_ids"`
	// Planner names what planned it ("llm", "offline", …).
	Planner string `json:"planner,omitempty"`
	// Status is ClusterOK, ClusterFallback or ClusterFailed.
	Status string    `json:"status"`
	Error  *RunError `json:"error,omitempty"`
}

// ScopeClustering is how one scope instance of more than MaxClusterSize entries was split
// when a topic clusterer was configured.
type ScopeClustering struct {
	Scope memory.Scope `json:"scope"`
	Key   string       `json:"key"`
	// Clusterer is the one whose clusters were used: the topic clusterer, or "structural"
	// after it failed (Fallback says why).
	Clusterer string `json:"clusterer"`
	Topics    int    `json:"topics"`
	// UnknownIDs, RepeatedIDs: ids of the answer dropped (not in the scope instance; already
	// in an earlier cluster). LeftOut: entries no topic held, grouped structurally.
	UnknownIDs  int       `json:"unknown_ids"`
	RepeatedIDs int       `json:"repeated_ids"`
	LeftOut     int       `json:"left_out"`
	Fallback    *RunError `json:"fallback,omitempty"`
}

// ScopeScan is one scope instance as the scan found it, with its quota and the compression
// target (limit − 100) handed to planners.
type ScopeScan struct {
	Scope      memory.Scope `json:"scope"`
	Key        string       `json:"key"`
	Workdir    string       `json:"workdir,omitempty"`
	Agent      string       `json:"agent,omitempty"`
	Count      int          `json:"count"`
	Used       int          `json:"used"`
	Limit      int          `json:"limit"`
	Headroom   int          `json:"headroom"`
	Level      string       `json:"level"`
	Target     int          `json:"target"`
	OverTarget int          `json:"over_target"`
}

// Counts summarise a run.
type Counts struct {
	Scanned        int `json:"scanned"`
	Scopes         int `json:"scopes"`
	Clusters       int `json:"clusters"`
	ClustersFailed int `json:"clusters_failed"`
	// ClustersFallback counts clusters the model failed and the offline planner planned.
	ClustersFallback int `json:"clusters_fallback,omitempty"`
	Decisions        int `json:"decisions"`
	Keep             int `json:"keep"`
	MergeInto        int `json:"merge_into"`
	Delete           int `json:"delete"`
	MarkReview       int `json:"mark_review"`
	RewriteHint      int `json:"rewrite_hint"`
	Auto             int `json:"auto"`
	Queued           int `json:"queued"`
	Dropped          int `json:"dropped"`
	Applied          int `json:"applied"`
	Failed           int `json:"failed"`
	// Removed is how many memories applied merges and deletes took out of the store.
	Removed int `json:"removed"`
}

// RunError is a coded failure recorded in a run (i18n key "error.<code>").
type RunError struct {
	Code    string         `json:"code"`
	Args    map[string]any `json:"args,omitempty"`
	Message string         `json:"message"`
}

func runErrorOf(err error) *RunError {
	if err == nil {
		return nil
	}
	re := &RunError{Code: CodeInternal, Message: err.Error()}
	if e, ok := err.(*Error); ok {
		re.Code, re.Args = e.Code, e.Args
	} else if c := memory.CodeOf(err); c != memory.CodeInternal {
		re.Code = c
	}
	if re.Args == nil {
		re.Args = map[string]any{"Detail": err.Error()}
	}
	return re
}

// Report is the typed report of one run (version ReportVersion).
type Report struct {
	Version int     `json:"version"`
	RunID   string  `json:"run_id"`
	Trigger Trigger `json:"trigger"`
	Mode    Mode    `json:"mode"`
	// ScopeFilter is the one scope instance the run was asked to organize (nil: every scope).
	ScopeFilter *ScopeInstance `json:"scope_filter,omitempty"`
	Clusterer   string         `json:"clusterer"`
	Planner     string         `json:"planner"`
	// Model is the model that clustered and planned ("provider/model"), empty offline.
	Model string `json:"model,omitempty"`
	// LLMFallback records why a configured model could not be used at all (offline instead).
	LLMFallback *RunError `json:"llm_fallback,omitempty"`
	// ClusterFallback records why a topic clusterer was not used (structural groups instead):
	// the first scope's failure; Clustering has every scope's.
	ClusterFallback *RunError         `json:"cluster_fallback,omitempty"`
	Clustering      []ScopeClustering `json:"clustering,omitempty"`
	// TokenUsage is what the model calls of each phase (cluster, plan) cost; their sum is the
	// run's token_usage_total.
	TokenUsage       map[Phase]Usage `json:"token_usage,omitempty"`
	QuotaLevel       string          `json:"quota_level"`
	QuotaHeadroom    int             `json:"quota_headroom"`
	Scopes           []ScopeScan     `json:"scopes"`
	Counts           Counts          `json:"counts"`
	RejectionBuckets map[string]int  `json:"rejection_buckets"`
	Clusters         []ClusterReport `json:"clusters"`
	Decisions        []Decision      `json:"decisions"`
	// Snapshots are the folders (relative to the memory folder) holding the files as they
	// were before this run changed them.
	Snapshots []string  `json:"snapshots"`
	Error     *RunError `json:"error,omitempty"`
	// Undo is set once a person undid the run (UndoRun): a run is undone once.
	Undo *UndoRecord `json:"undo,omitempty"`
}

func newReport(runID string, trigger Trigger, mode Mode) *Report {
	return &Report{Version: ReportVersion, RunID: runID, Trigger: trigger, Mode: mode, RejectionBuckets: map[string]int{},
		Scopes: []ScopeScan{}, Clusters: []ClusterReport{}, Decisions: []Decision{}, Snapshots: []string{}}
}

// parseReport reads a stored report; an empty one (a queued run) is nil.
func parseReport(raw string) (*Report, error) {
	if raw == "" || raw == "{}" {
		return nil, nil
	}
	var head struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal([]byte(raw), &head); err != nil {
		return nil, wrapErr(CodeReportUnsupported, err, "unable to read the run report")
	}
	if head.Version != ReportVersion {
		return nil, codeErr(CodeReportUnsupported, map[string]any{"Detail": fmt.Sprintf("version %d", head.Version)},
			"unable to read a version %d run report", head.Version)
	}
	var r Report
	if err := json.Unmarshal([]byte(raw), &r); err != nil {
		return nil, wrapErr(CodeReportUnsupported, err, "unable to read the run report")
	}
	if r.RejectionBuckets == nil {
		r.RejectionBuckets = map[string]int{}
	}
	return &r, nil
}

// recount recomputes the decision counts and buckets from the decisions.
func (r *Report) recount() {
	c := &r.Counts
	c.Decisions, c.MergeInto, c.Delete, c.MarkReview, c.RewriteHint = 0, 0, 0, 0, 0
	c.Auto, c.Queued, c.Dropped, c.Applied, c.Failed, c.Removed = 0, 0, 0, 0, 0, 0
	r.RejectionBuckets = map[string]int{}
	for _, d := range r.Decisions {
		c.Decisions++
		switch d.Action {
		case ActionMergeInto:
			c.MergeInto++
		case ActionDelete:
			c.Delete++
		case ActionMarkReview:
			c.MarkReview++
		case ActionRewriteHint:
			c.RewriteHint++
		}
		switch d.Outcome {
		case OutcomeAuto:
			c.Auto++
		case OutcomeQueue:
			c.Queued++
		case OutcomeDrop:
			c.Dropped++
		}
		if d.Bucket != "" {
			r.RejectionBuckets[d.Bucket]++
		}
		switch d.Status {
		case DecisionApplied:
			c.Applied++
		case DecisionFailed:
			c.Failed++
		}
		if d.Result != nil {
			c.Removed += d.Result.Removed
		}
	}
}
