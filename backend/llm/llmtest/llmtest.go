// Package llmtest is the one stand-in tests may use for a language model: a loopback HTTP
// server on 127.0.0.1 that speaks the real wire formats of OpenAI Chat Completions
// (POST /v1/chat/completions) and Anthropic Messages (POST /v1/messages), both plain JSON and
// streamed as server-sent events, with replies scripted per test.
//
// Use:
//
//	srv := llmtest.NewOpenAI(t)            // or llmtest.NewAnthropic(t)
//	srv.Push(
//		llmtest.Status(429, "1"),          // first call: rate limited, Retry-After: 1
//		llmtest.Call("SubmitMemoryPlan", `{"status":"noop"}`).WithUsage(120, 30),
//	)
//	client, _ := llm.New(llm.Config{Provider: llm.ProviderOpenAI, BaseURL: srv.URL(), Model: "gpt-4o-mini"}, "sk-test", sink)
//	resp, err := client.Complete(ctx, req)
//	got := srv.Requests()                  // every request received, decoded
//	got[1].ToolChoice()                    // what was sent: tools, tool_choice, system, auth
//
// Each request takes the next reply from the queue (Push appends). A request that finds the
// queue empty is answered 500 and fails the test: a test states every call it expects.
// Whether a reply is streamed follows the request's own "stream" field, as a real provider
// does. Tool-call arguments are sent exactly as scripted, malformed JSON included (for
// Anthropic's non-streamed replies, whose wire carries input as a JSON value, a string that is
// not JSON is sent as a JSON string). The server closes itself when the test ends; replies
// that hang are released then.
package llmtest

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// Wire formats the server speaks.
const (
	WireOpenAI    = "openai"
	WireAnthropic = "anthropic"
)

// ToolCall is one scripted call. Arguments is sent as is: it may be malformed on purpose.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string
}

// Reply is one scripted answer. A Status other than 0 or 200 makes it an HTTP error; Hang
// holds the request until the client gives up; Raw sends a body verbatim (a 200 the client
// cannot parse).
type Reply struct {
	Text         string
	ToolCalls    []ToolCall
	InputTokens  int
	OutputTokens int
	// CacheReadTokens and CacheWriteTokens are prompt tokens read from and written to the
	// provider's prompt cache, on top of InputTokens: Anthropic reports them apart
	// (cache_read_input_tokens, cache_creation_input_tokens); OpenAI counts the read ones in
	// prompt_tokens and again as prompt_tokens_details.cached_tokens.
	CacheReadTokens  int
	CacheWriteTokens int
	// StopReason overrides the natural one (stop/end_turn, tool_calls/tool_use).
	StopReason string
	// Refusal is OpenAI's refusal field: the model's words declining the request, sent
	// instead of content (streamed as "refusal" deltas). Anthropic says it with StopReason
	// "refusal".
	Refusal string
	// Model overrides the model named in the reply (default: the requested model).
	Model string

	Status     int
	RetryAfter string // the Retry-After header of an error reply, e.g. "1"
	ErrorMsg   string
	// ErrorType overrides the error body's type (on OpenAI's wire its code too), as a
	// provider names the failure: OpenAI's 429 "insufficient_quota", Anthropic's
	// "overloaded_error".
	ErrorType string

	// Delay waits before answering (the wait ends early if the client goes away).
	Delay time.Duration
	// Gate, when set, holds the answer until the channel is closed: a test decides when the
	// model answers (to show a caller did not wait for it).
	Gate <-chan struct{}
	Hang bool
	Raw  string
	// Truncate ends a streamed reply after its first content (text, or a tool call's first
	// piece of arguments), without the closing events (finish reason, usage, [DONE] /
	// message_delta, message_stop): a dropped connection.
	Truncate bool
	// NoFinishReason streams an OpenAI reply whole, ending with [DONE], but never sends a
	// finish_reason, as some compatible servers and proxies do.
	NoFinishReason bool
	// StreamError ends a streamed reply after its first content with an error event of this
	// type (Anthropic's "overloaded_error", "api_error"…; OpenAI's "server_error"…), as a
	// provider does when it fails mid-answer with a 200 already sent.
	StreamError string
}

// Text is a plain text answer.
func Text(s string) Reply { return Reply{Text: s, InputTokens: 10, OutputTokens: 5} }

// Call is an answer that calls one tool with raw arguments.
func Call(name, arguments string) Reply {
	return Calls(ToolCall{Name: name, Arguments: arguments})
}

// Calls is an answer made of tool calls (IDs are filled in when empty).
func Calls(calls ...ToolCall) Reply {
	return Reply{ToolCalls: calls, InputTokens: 10, OutputTokens: 5}
}

// Status is an HTTP error answer; retryAfter ("" for none) becomes the Retry-After header.
func Status(code int, retryAfter string) Reply {
	return Reply{Status: code, RetryAfter: retryAfter, ErrorMsg: http.StatusText(code)}
}

// Hang never answers: the request stays open until the client cancels or times out.
func Hang() Reply { return Reply{Hang: true} }

// Raw answers 200 with body verbatim.
func Raw(body string) Reply { return Reply{Raw: body} }

// WithUsage sets the token counts reported.
func (r Reply) WithUsage(in, out int) Reply { r.InputTokens, r.OutputTokens = in, out; return r }

// WithCache sets the prompt tokens reported as read from and written to the prompt cache.
func (r Reply) WithCache(read, write int) Reply {
	r.CacheReadTokens, r.CacheWriteTokens = read, write
	return r
}

// WithoutFinishReason streams the reply with no finish_reason (see Reply.NoFinishReason).
func (r Reply) WithoutFinishReason() Reply { r.NoFinishReason = true; return r }

// WithDelay waits d before answering.
func (r Reply) WithDelay(d time.Duration) Reply { r.Delay = d; return r }

// FailMidStream is a streamed reply that breaks off with an error event of type kind.
func FailMidStream(kind string) Reply {
	return Reply{Text: "Partial answer that never ends", StreamError: kind, InputTokens: 10, OutputTokens: 1}
}

// Truncated cuts a streamed reply short (see Reply.Truncate).
func (r Reply) Truncated() Reply { r.Truncate = true; return r }

// WithGate holds the answer until gate is closed.
func (r Reply) WithGate(gate <-chan struct{}) Reply { r.Gate = gate; return r }

// WithModel names another model in the reply.
func (r Reply) WithModel(m string) Reply { r.Model = m; return r }

// Request is one request the server received.
type Request struct {
	Method string
	Path   string
	Header http.Header
	// Body is the decoded JSON body (nil when it was not JSON); Raw is the body as sent.
	Body map[string]any
	Raw  []byte
}

// Server is a scripted provider. Safe for concurrent use.
type Server struct {
	t    testing.TB
	wire string
	srv  *httptest.Server
	done chan struct{}

	mu       sync.Mutex
	queue    []Reply
	requests []Request
	arrived  chan struct{}
	seq      int
}

// NewOpenAI starts a server speaking OpenAI Chat Completions. URL() ends in /v1, the base URL
// OpenAI-compatible clients take.
func NewOpenAI(t testing.TB) *Server { return start(t, WireOpenAI) }

// NewAnthropic starts a server speaking Anthropic Messages. URL() is the bare origin, the base
// URL Anthropic's client takes.
func NewAnthropic(t testing.TB) *Server { return start(t, WireAnthropic) }

func start(t testing.TB, wire string) *Server {
	t.Helper()
	s := &Server{t: t, wire: wire, done: make(chan struct{}), arrived: make(chan struct{}, 1)}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("llmtest: unable to listen on 127.0.0.1: %v", err)
	}
	s.srv = &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(s.handle)}}
	s.srv.Start()
	t.Cleanup(s.Close)
	return s
}

// Close releases hanging replies and stops the server. Called by the test's cleanup; safe to
// call twice.
func (s *Server) Close() {
	s.mu.Lock()
	select {
	case <-s.done:
		s.mu.Unlock()
		return
	default:
		close(s.done)
	}
	s.mu.Unlock()
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// URL is the base URL to configure a client with.
func (s *Server) URL() string {
	if s.wire == WireOpenAI {
		return s.srv.URL + "/v1"
	}
	return s.srv.URL
}

// Wire is WireOpenAI or WireAnthropic.
func (s *Server) Wire() string { return s.wire }

// Push appends replies to the queue.
func (s *Server) Push(replies ...Reply) {
	s.mu.Lock()
	s.queue = append(s.queue, replies...)
	s.mu.Unlock()
}

// Pending is how many pushed replies no request has taken yet.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// Requests returns a copy of every request received so far, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// WaitRequests blocks until at least n requests have arrived (a test cancelling a call
// mid-flight waits on this, not on a delay). It fails the test after a generous 60 s.
func (s *Server) WaitRequests(n int) []Request {
	s.t.Helper()
	deadline := time.NewTimer(60 * time.Second)
	defer deadline.Stop()
	for {
		if got := s.Requests(); len(got) >= n {
			return got
		}
		select {
		case <-s.arrived:
		case <-deadline.C:
			s.t.Fatalf("llmtest: %d request(s) arrived, waited for %d", len(s.Requests()), n)
			return nil
		}
	}
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	req := Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Raw: raw}
	var body map[string]any
	if json.Unmarshal(raw, &body) == nil {
		req.Body = body
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	var reply Reply
	ok := len(s.queue) > 0
	if ok {
		reply, s.queue = s.queue[0], s.queue[1:]
	}
	s.seq++
	seq := s.seq
	s.mu.Unlock()
	select {
	case s.arrived <- struct{}{}:
	default:
	}

	want := "/v1/chat/completions"
	if s.wire == WireAnthropic {
		want = "/v1/messages"
	}
	if r.Method != http.MethodPost || r.URL.Path != want {
		s.writeError(w, http.StatusNotFound, "", "no such endpoint "+r.Method+" "+r.URL.Path, "")
		return
	}
	if !ok {
		s.t.Errorf("llmtest: request %d arrived with no scripted reply left", seq)
		s.writeError(w, http.StatusInternalServerError, "", "llmtest: no scripted reply", "")
		return
	}
	if reply.Hang {
		select {
		case <-r.Context().Done():
		case <-s.done:
		}
		return
	}
	if reply.Gate != nil {
		select {
		case <-reply.Gate:
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		}
	}
	if reply.Delay > 0 {
		t := time.NewTimer(reply.Delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		}
	}
	if reply.Status != 0 && reply.Status != http.StatusOK {
		s.writeError(w, reply.Status, reply.RetryAfter, reply.ErrorMsg, reply.ErrorType)
		return
	}
	if reply.Raw != "" {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, reply.Raw)
		return
	}
	model, _ := body["model"].(string)
	if reply.Model != "" {
		model = reply.Model
	}
	for i := range reply.ToolCalls {
		if reply.ToolCalls[i].ID == "" {
			reply.ToolCalls[i].ID = callID(s.wire, seq, i)
		}
	}
	stream, _ := body["stream"].(bool)
	switch {
	case s.wire == WireOpenAI && stream:
		includeUsage := false
		if so, ok := body["stream_options"].(map[string]any); ok {
			includeUsage, _ = so["include_usage"].(bool)
		}
		s.openAIStream(w, r, reply, model, seq, includeUsage)
	case s.wire == WireOpenAI:
		writeJSON(w, openAIMessage(reply, model, seq))
	case stream:
		s.anthropicStream(w, r, reply, model, seq)
	default:
		writeJSON(w, anthropicMessage(reply, model, seq))
	}
}

func (s *Server) writeError(w http.ResponseWriter, status int, retryAfter, msg, kind string) {
	if retryAfter != "" {
		w.Header().Set("Retry-After", retryAfter)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	var body any
	if s.wire == WireOpenAI {
		typ, code := openAIErrorType(status), any(nil)
		if kind != "" {
			typ, code = kind, kind
		}
		body = map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": code}}
	} else {
		typ := anthropicErrorType(status)
		if kind != "" {
			typ = kind
		}
		body = map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}}
	}
	_ = json.NewEncoder(w).Encode(body)
}

func openAIErrorType(status int) string {
	switch {
	case status == 401:
		return "invalid_request_error"
	case status == 429:
		return "rate_limit_exceeded"
	case status >= 500:
		return "server_error"
	}
	return "invalid_request_error"
}

func anthropicErrorType(status int) string {
	switch status {
	case 401:
		return "authentication_error"
	case 403:
		return "permission_error"
	case 404:
		return "not_found_error"
	case 429:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	}
	if status >= 500 {
		return "api_error"
	}
	return "invalid_request_error"
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// sse writes server-sent events and flushes each one, so a client sees them as they come.
type sse struct {
	w http.ResponseWriter
	f http.Flusher
}

func newSSE(w http.ResponseWriter) *sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	return &sse{w: w, f: f}
}

func (e *sse) send(event string, data any) {
	var buf bytes.Buffer
	if event != "" {
		buf.WriteString("event: " + event + "\n")
	}
	switch d := data.(type) {
	case string:
		buf.WriteString("data: " + d + "\n\n")
	default:
		b, _ := json.Marshal(d)
		buf.WriteString("data: " + string(b) + "\n\n")
	}
	_, _ = e.w.Write(buf.Bytes())
	if e.f != nil {
		e.f.Flush()
	}
}

// pieces splits s into up to n parts (at least one, possibly empty) the way a provider
// streams text and argument deltas.
func pieces(s string, n int) []string {
	if s == "" {
		return []string{""}
	}
	r := []rune(s)
	size := (len(r) + n - 1) / n
	var out []string
	for i := 0; i < len(r); i += size {
		end := min(i+size, len(r))
		out = append(out, string(r[i:end]))
	}
	return out
}

func callID(wire string, seq, i int) string {
	if wire == WireOpenAI {
		return "call_" + itoa(seq) + "_" + itoa(i)
	}
	return "toolu_" + itoa(seq) + "_" + itoa(i)
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
