// Package llm talks to language models: OpenAI-compatible endpoints (OpenAI, DeepSeek, Qwen,
// Ollama, LM Studio, vLLM) over Chat Completions and Anthropic over the Messages API, each
// spoken directly with net/http and a small server-sent-events reader. The official SDKs were
// a fifth of the binary (and of its resident pages) for the two calls Engram makes;
// testdata/wire_bodies.json holds what those SDKs sent, and these clients send the same. It
// offers one Client over both, with tool calling, timeouts, cancellation, retries on 429/5xx
// and a usage row per call. It imports no store: usage rows go to a UsageSink the caller
// provides.
package llm

import (
	"context"
	"encoding/json"
	"time"
)

// Providers.
const (
	ProviderOpenAI    = "openai"    // any OpenAI-compatible endpoint, chosen by base URL
	ProviderAnthropic = "anthropic" // Anthropic's Messages API
)

// Purposes recorded on usage rows.
const (
	PurposeExtraction      = "extraction"
	PurposeOrganizerTopics = "organizer_clusters"
	PurposeOrganizerPlan   = "organizer_plan"
	PurposeSummary         = "session_summary"
	PurposeTest            = "test_connection"
)

// Role of a message in a conversation with the model.
type Role string

// Roles.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	// RoleTool carries the result of one tool call back to the model (ToolCallID names it).
	RoleTool Role = "tool"
)

// Message is one turn sent to the model. The system prompt travels in Request.System.
type Message struct {
	Role    Role   `json:"role"`
	Content string `json:"content,omitempty"`
	// ToolCalls are the calls an assistant turn made (when replaying a tool-call loop).
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID answers one earlier call (RoleTool only).
	ToolCallID string `json:"tool_call_id,omitempty"`
}

// Tool is a function the model may call. Parameters is a JSON Schema object.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// ToolChoice modes.
const (
	ToolChoiceAuto     = "auto"     // the model decides (default)
	ToolChoiceRequired = "required" // the model must call some tool
	ToolChoiceTool     = "tool"     // the model must call the tool named in ToolChoice.Name
)

// ToolChoice says whether and which tool the model must call.
type ToolChoice struct {
	Mode string `json:"mode,omitempty"`
	Name string `json:"name,omitempty"`
}

// Request is one call to the model.
type Request struct {
	// Purpose goes on the usage row (extraction, organizer_plan, …).
	Purpose    string
	System     string
	Messages   []Message
	Tools      []Tool
	ToolChoice ToolChoice
	// MaxTokens bounds the answer; 0 picks the client's default.
	MaxTokens int
	// Temperature, when set, overrides the provider's default.
	Temperature *float64
	// Timeout bounds the whole call including retries; 0 picks the client's default.
	Timeout time.Duration
}

// ToolCall is one call the model made. Arguments is the raw JSON the model sent: hostile
// input, to be decoded strictly and validated by the caller.
type ToolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// Usage is what one call cost.
type Usage struct {
	// InputTokens counts every prompt token, cached ones included.
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	// CacheReadTokens and CacheWriteTokens are the part of InputTokens the provider read from
	// or wrote to its prompt cache (Anthropic's cache_read/cache_creation_input_tokens),
	// priced apart (UsageCost).
	CacheReadTokens  int `json:"cache_read_tokens,omitempty"`
	CacheWriteTokens int `json:"cache_write_tokens,omitempty"`
	// CostUSD is 0 when no price is known for the model.
	CostUSD float64 `json:"cost_usd"`
}

// Response is the model's answer.
type Response struct {
	Text       string     `json:"text,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	Usage      Usage      `json:"usage"`
	Provider   string     `json:"provider"`
	Model      string     `json:"model"`
	StopReason string     `json:"stop_reason,omitempty"`
	// Refusal is the model's words declining the request (OpenAI's refusal field).
	Refusal string `json:"refusal,omitempty"`
}

// Refused reports whether the model declined to answer: OpenAI's refusal field or its
// "content_filter" finish, Anthropic's "refusal" stop reason. Asked again, it declines again.
func (r Response) Refused() bool {
	return r.Refusal != "" || r.StopReason == "refusal" || r.StopReason == "content_filter"
}

// Client is one configured model. Implementations are safe for concurrent use.
type Client interface {
	// Complete sends one request. It retries 429 and 5xx answers with backoff within the
	// request's timeout, stops at once when ctx is cancelled, and records one usage row per
	// call that reached the provider.
	Complete(ctx context.Context, req Request) (Response, error)
	// Provider and Model name what answers (for run records and usage rows).
	Provider() string
	Model() string
}

// UsageRow is one call's accounting, written by the caller's sink (the store's llm_usage).
type UsageRow struct {
	At           time.Time `json:"at"`
	Provider     string    `json:"provider"`
	Model        string    `json:"model"`
	Purpose      string    `json:"purpose"`
	InputTokens  int       `json:"input_tokens"`
	OutputTokens int       `json:"output_tokens"`
	CostUSD      float64   `json:"cost_usd"`
}

// UsageSink records usage rows; a nil sink records nothing.
type UsageSink func(ctx context.Context, row UsageRow) error
