package organizer

import (
	"context"
	"time"

	"engram/backend/memory"
)

// Cluster sizes of DESIGN §7: a scope instance with more than MaxClusterSize entries is split
// into topic clusters (at most MaxTopicClusters from a topic clusterer) or structural groups
// of at most MaxClusterSize.
const (
	MaxClusterSize   = 8
	MaxTopicClusters = 12
)

// ReviewTag is the tag an applied mark_review decision adds, so the Review view can list what
// the organizer sent back to a person.
const ReviewTag = "needs-review"

// Usage is what model calls of a phase cost; it sums into the run's token_usage_total. The
// offline clusterer and planner report zero.
type Usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

// Total is input plus output tokens.
func (u Usage) Total() int { return u.InputTokens + u.OutputTokens }

// ScopeInstance names one scope instance: global, one project, or one agent.
type ScopeInstance struct {
	Scope   memory.Scope `json:"scope"`
	Key     string       `json:"key"`
	Workdir string       `json:"workdir,omitempty"`
	Agent   string       `json:"agent,omitempty"`
}

// Cluster is a group of entries of one scope instance handed to a planner at once.
type Cluster struct {
	ID    string
	Key   string
	Scope ScopeInstance
	// Topic is the topic clusterer's label; empty for structural groups.
	Topic   string
	Entries []*memory.Memory
}

// ClusterInput is one scope instance to split into topic clusters.
type ClusterInput struct {
	RunID       string
	Scope       ScopeInstance
	Entries     []*memory.Memory
	MaxClusters int
	MaxSize     int
}

// ClusterOutput lists clusters as entry ids. Entries left out are grouped structurally.
type ClusterOutput struct {
	Groups [][]string
	// Topics label Groups (same order) when the clusterer names its clusters.
	Topics []string
	// UnknownIDs and RepeatedIDs count what the clusterer's own validation dropped: ids not
	// in the scope instance, and ids already in an earlier cluster.
	UnknownIDs  int
	RepeatedIDs int
	Usage       Usage
}

// Clusterer splits a scope instance into topic clusters. It is the seam for an LLM clusterer
// that answers through a SubmitMemoryTopicClusters tool call; with none configured (or when it
// fails) the organizer falls back to structural scope:type:hash groups.
type Clusterer interface {
	Name() string
	Cluster(ctx context.Context, in ClusterInput) (ClusterOutput, error)
}

// InventoryItem is one line of the global inventory planners see beside their cluster, so a
// model can tell that a topic already lives elsewhere.
type InventoryItem struct {
	ID string `json:"id"`
	// Cluster is the id of the cluster the entry was put in.
	Cluster string       `json:"cluster"`
	Slug    string       `json:"slug"`
	Title   string       `json:"title"`
	Scope   memory.Scope `json:"scope"`
	Key     string       `json:"key"`
	Type    memory.Type  `json:"type"`
}

// PlanInput is what a planner gets for one cluster.
type PlanInput struct {
	RunID   string
	Trigger Trigger
	Mode    Mode
	Cluster Cluster
	// Inventory lists every scanned entry of every scope instance.
	Inventory []InventoryItem
	// Quota is the cluster's scope instance with its compression target (limit − 100).
	Quota       ScopeScan
	Now         time.Time
	ReviewAfter time.Duration
	// Corpus is every memory the run read, analysed, and their vocabulary, which the offline
	// planner's guards weigh distinguishing words by; nil analyses the cluster alone, weighing
	// words within it.
	Corpus *Corpus
}

// Proposal is one decision as a planner proposes it (the shape of a SubmitMemoryOrganizePlan
// item). The gate validates it and recomputes its risk; nothing a planner says is trusted.
type Proposal struct {
	Action Action `json:"action"`
	// Targets are entry ids; for merge_into, the entries folded into Into.
	Targets    []string `json:"targets"`
	Into       string   `json:"into,omitempty"`
	Confidence float64  `json:"confidence"`
	Tier       Tier     `json:"tier,omitempty"`
	Score      float64  `json:"score,omitempty"`
	Reason     Reason   `json:"reason"`
	Hint       string   `json:"hint,omitempty"`
	// Body is a planner's merged text for merge_into; nil lets the organizer merge the bodies
	// itself (keeper first, then whatever the others add). The LLM planner never sets it: a
	// model never writes a memory's text.
	Body *string `json:"body,omitempty"`
	// Evidence is what the planner says must survive the decision, verbatim from the entries;
	// the gate drops a merge whose result would lose any of it.
	Evidence []string `json:"evidence,omitempty"`
	// Drop is set by a planner's own validation: the proposal is reported as dropped in this
	// bucket and never applied.
	Drop string `json:"-"`
	// Oversized is set on the decisions taken from a plan that held more than one plan may:
	// a model sending thousands is misbehaving, so what is taken from it waits for a person
	// and is never applied by a scheduled run on its own.
	Oversized bool `json:"-"`
}

// PlanOutput is a planner's answer for one cluster.
type PlanOutput struct {
	Proposals []Proposal
	Usage     Usage
}

// Planner proposes decisions for one cluster. It is the seam for an LLM planner answering
// through a SubmitMemoryOrganizePlan tool call; OfflinePlanner is the built-in one. An error
// fails only its cluster: the run records it and goes on.
type Planner interface {
	Name() string
	Plan(ctx context.Context, in PlanInput) (PlanOutput, error)
}
