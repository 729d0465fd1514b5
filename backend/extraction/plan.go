// Package extraction turns conversation turns into unreviewed memories: a controller that
// gates, coalesces and cancels runs; a compact context; a planner (the model through
// SubmitMemoryPlan, or the offline rule-based extractor); per-item validation; and one
// apply_batch per run.
package extraction

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	turnpkg "engram/backend/extraction/turn"
	"engram/backend/memory"
)

// Request, Message and Mutation are the turn as clients deliver it (package turn, a leaf the
// transcript parser shares without linking extraction).
type (
	Request  = turnpkg.Request
	Message  = turnpkg.Message
	Mutation = turnpkg.Mutation
)

// Plan actions a planner may propose. "accept" is never one: only a person accepts.
const (
	ActionWrite       = "write"
	ActionUpdate      = "update"
	ActionDelete      = "delete"
	ActionAppendDaily = "append_daily"
)

// Plan statuses.
const (
	PlanUpdated = "updated"
	PlanNoop    = "noop"
)

// Plan is what a planner proposes for one turn (the arguments of SubmitMemoryPlan).
type Plan struct {
	Status  string          `json:"status"`
	Items   []PlanItem      `json:"items,omitempty"`
	Profile []ProfileSignal `json:"profile,omitempty"`
}

// PlanItem is one proposed change. Every field is hostile input until validated.
type PlanItem struct {
	Action         string     `json:"action"`
	Slug           string     `json:"slug,omitempty"`
	Scope          string     `json:"scope,omitempty"`
	Type           string     `json:"type,omitempty"`
	Description    string     `json:"description,omitempty"` // the memory's title
	Body           string     `json:"body,omitempty"`
	Mode           string     `json:"mode,omitempty"` // merge | replace (update)
	Confidence     string     `json:"confidence,omitempty"`
	SourceQuote    string     `json:"source_quote,omitempty"` // verbatim from a user message, ≤ 80 chars
	Reasoning      string     `json:"reasoning,omitempty"`
	Aliases        []string   `json:"aliases,omitempty"`
	Supersedes     []string   `json:"supersedes,omitempty"`
	ConflictsWith  []string   `json:"conflicts_with,omitempty"`
	OverrideReject bool       `json:"override_reject,omitempty"`
	Relations      []Relation `json:"relations,omitempty"`
	// ReasonKey and ReasonArgs name the catalog message a planner of this process (the offline
	// one) gives instead of Reasoning: the service writes it as the reasoning, in the person's
	// language from Settings, before the plan is validated (renderReasons). Never in a model's
	// plan.
	ReasonKey  string         `json:"-"`
	ReasonArgs map[string]any `json:"-"`
	// proposalOf is the reviewed memory a proposal stands beside (reviewed.go), never a
	// model's; split marks an identity split's change, which keeps its own rule for reviewed
	// memories (offline_identity_split.go).
	proposalOf *memory.Memory
	split      bool
	// legacySlug is the slug an older build's offline extractor gave the same fact (a hash
	// for Chinese), never a model's: resolveLegacySlugs updates a memory stored under it.
	legacySlug string
}

// Relation is a typed edge for the knowledge graph, written into the body in the grammar of
// DESIGN §8: "- relation [[Object]]" from the memory's subject, or "- [[Subject]] relation
// [[Object]]" between two entities.
type Relation struct {
	Subject  string `json:"subject,omitempty"`
	Relation string `json:"relation"`
	Object   string `json:"object"`
	// ObjectType is the object's entity kind (person, organization, …), written as the
	// line's "#type" so the file, not the plan, carries it.
	ObjectType string `json:"object_type,omitempty"`
}

// Profile signal kinds (ZCLAW's user profile).
const (
	SignalRole          = "role"
	SignalIndustry      = "industry"
	SignalCommStyle     = "communication_style"
	SignalRecentTopic   = "recent_topic"
	SignalPainPoint     = "pain_point"
	SignalPreferredTool = "preferred_tool"
)

// ProfileSignal is one observation about the person, with the words that show it.
type ProfileSignal struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
	Quote string `json:"quote,omitempty"`
}

// Candidate is an existing memory shown to the planner so it updates instead of duplicating.
type Candidate struct {
	Slug  string `json:"slug"`
	Scope string `json:"scope"`
	Type  string `json:"type"`
	Title string `json:"title"`
	// Reviewed: the person accepted it; an update of it becomes a proposal (reviewed.go).
	Reviewed bool `json:"reviewed,omitempty"`
}

// Input is the compact context a planner sees for one run (DESIGN §6): the last user turns,
// the workspace mutations, candidates, recent rejections and what this turn already wrote.
type Input struct {
	Request         Request     `json:"request"`
	Turns           []Message   `json:"turns"`
	Candidates      []Candidate `json:"candidates,omitempty"`
	Rejected        []string    `json:"rejected,omitempty"` // slugs a person rejected in the last 7 days
	WrittenThisTurn []string    `json:"written_this_turn,omitempty"`
	// ProjectPinned is true when the person asked to remember something for this project.
	ProjectPinned bool `json:"project_pinned,omitempty"`
	// Planned holds the ContentHash of user messages in Turns that an earlier run of this
	// session already planned. A planner that reads only what is new (the offline extractor)
	// skips them; the newest message is never in it.
	Planned []string  `json:"planned,omitempty"`
	Now     time.Time `json:"now"`
}

// ContentHash identifies a user message by its text alone, whichever request carried it.
func ContentHash(text string) string {
	sum := sha256.Sum256([]byte(strings.TrimSpace(text)))
	return hex.EncodeToString(sum[:12])
}

// Outcome is a planner's answer with what it cost.
type Outcome struct {
	Plan         Plan   `json:"plan"`
	Model        string `json:"model,omitempty"` // "offline" for the rule-based extractor
	InputTokens  int    `json:"input_tokens,omitempty"`
	OutputTokens int    `json:"output_tokens,omitempty"`
	// Retried is true when the model answered without the tool and was asked once more.
	Retried bool `json:"retried,omitempty"`
	// NoopReason says why the planner has no plan to offer (no tool call, malformed
	// arguments) when it gives up with a noop; "" when the plan is the planner's own.
	NoopReason string `json:"noop_reason,omitempty"`
	// DecodeError is why the last SubmitMemoryPlan arguments could not be read.
	DecodeError string `json:"decode_error,omitempty"`
	// ModelError is why the configured model failed when the offline extractor planned
	// instead (ModelOrOffline); nil otherwise.
	ModelError error `json:"-"`
}

// Planner proposes a plan for one run: the model through SubmitMemoryPlan, or the offline
// rule-based extractor when no model is configured.
type Planner interface {
	Plan(ctx context.Context, in Input) (Outcome, error)
}

// Validation codes of plan items (DESIGN §6), carried on rejected items.
const (
	CodeInvalidAction       = "invalid-action"
	CodeMissingSlug         = "missing-slug"
	CodeInvalidScope        = "invalid-scope"
	CodeProjectNoEvidence   = "project-scope-without-evidence"
	CodeDuplicateSlugInPlan = "duplicate-slug-in-plan"
	CodeAlreadyWritten      = "already-written-this-turn"
	CodeRejectedNoOverride  = "rejected-slug-no-override"
	CodeBodyTooLarge        = "body-too-large"
	CodeEmptyDailyBody      = "empty-daily-body"
	CodeMissingDescription  = "missing-description-for-write"
	CodeMissingBodyForWrite = "missing-body-for-write"
	CodeQuotaExhausted      = "quota-exhausted"
	CodePersonOnlyAction    = "person-only-action"
	// CodeReviewedDelete refuses a plan's delete of a memory the person reviewed: a turn's
	// extraction runs unasked, and what the person accepted is theirs to remove.
	CodeReviewedDelete = "reviewed-memory-delete"
	CodeTooManyItems   = "too-many-items"
	CodeQuoteNotInTurn = "quote-not-in-turn"
	// CodeQuoteSecret: the quote held part of a secret of the words it was cut from.
	CodeQuoteSecret = "quote-holds-secret"
)
