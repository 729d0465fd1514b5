package api

import (
	"reflect"

	"engram/backend/coded"
	"engram/backend/memory"
	"engram/backend/recall"
)

// The vocabulary transports need, re-exported so that cli, bridge, desktop and mcp import api
// and nothing below it (the transport-imports test holds them to that). Aliases, not copies:
// a value crosses the api unchanged.
type (
	Scope      = memory.Scope
	Type       = memory.Type
	Confidence = memory.Confidence
	Memory     = memory.Memory

	// Results some methods hand back as the store reports them.
	QuotaSummary    = memory.QuotaSummary
	ScopeQuota      = memory.ScopeQuota
	ReconcileReport = memory.ReconcileReport
	DoctorReport    = memory.DoctorReport
	Problem         = memory.Problem

	// The MemoryManager tool's answers (recall.tool), for transports that page or reshape them.
	ToolResult = recall.ToolResult
	ToolError  = recall.ToolError
	ToolHit    = recall.ToolHit
	ToolEntry  = recall.ToolEntry

	// The recall methods' params and results, for transports that call them by name.
	OverviewParams = recall.OverviewParams
	OverviewResult = recall.OverviewResult
	ContextParams  = recall.ContextParams
	ContextResult  = recall.ContextResult
)

// Scopes, types and confidences a transport may name.
const (
	ScopeGlobal  = memory.ScopeGlobal
	ScopeProject = memory.ScopeProject
	ScopeAgent   = memory.ScopeAgent

	TypeUser       = memory.TypeUser
	TypeFeedback   = memory.TypeFeedback
	TypeProject    = memory.TypeProject
	TypeReference  = memory.TypeReference
	TypeExperience = memory.TypeExperience
	TypeDaily      = memory.TypeDaily

	ConfidenceHigh   = memory.ConfidenceHigh
	ConfidenceMedium = memory.ConfidenceMedium
	ConfidenceLow    = memory.ConfidenceLow
)

// Actors an api can act as: the window and the CLI act as the user, the bridge as "bridge",
// MCP as "tool".
const (
	ActorUser   = memory.ActorUser
	ActorBridge = memory.ActorBridge
	ActorTool   = memory.ActorTool
)

// Limits a transport checks before it sends (DESIGN §2); the store enforces them again.
const (
	MaxTitleChars      = memory.MaxTitleChars
	MaxBodyBytes       = memory.MaxBodyBytes
	MaxDailyBytes      = memory.MaxDailyBytes
	MaxAgentDailyEntry = memory.MaxAgentDailyEntry
	MaxBatchItems      = memory.MaxBatchItems
	MaxSourceQuoteRune = memory.MaxSourceQuoteRune
	MaxImportLine      = memory.MaxImportLine
)

// BodyHolds is the store's test of whether a merge update's text is already in a body (it is
// then not appended), for transports that compare an update with a memory before sending it.
func BodyHolds(body, add string) bool { return memory.BodyHolds(body, add) }

// ApplyEvidence is the evidence contract (DESIGN §2): the confidence a write gets for the
// confidence asked and the quote given, and whether that was a downgrade.
func ApplyEvidence(requested Confidence, quote string) (Confidence, bool) {
	return memory.ApplyEvidence(requested, quote)
}

// JSONKind names the JSON value a Go type takes ("string", "number", "true/false", "list",
// "object"), for transports that explain a field of the wrong type.
func JSONKind(t reflect.Type) string { return coded.JSONKind(t) }

// CleanText and CleanList are how a write keeps a text or a list field (memory.CleanText).
func CleanText(s string) string { return memory.CleanText(s) }

// CleanList: see CleanText.
func CleanList(v []string) []string { return memory.CleanList(v) }
