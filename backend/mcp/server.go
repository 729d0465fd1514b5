// Package mcp is Engram's MCP server: the memory tools, the Memory Index and build_context, the
// journal, observe_turn and a per-agent key-value store, over stdio (`engram mcp`) and
// streamable HTTP (`/mcp` on the bridge). It is a transport over the api method table: every
// tool is one or two api calls made for the session's caller (its agent and project come from
// the transport, never from a tool's arguments), and everything a model writes lands unreviewed.
package mcp

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"engram/backend/api"
)

// DefaultBudgetTokens bounds one tool result (estimated by EstimateTokens); longer lists page.
// It leaves room under the 25,000 tokens Claude Code accepts from a tool even for the densest
// JSON (a kv_list page of hashes and ids at 20,000 came to 25,042 in Anthropic's tokenizer).
const DefaultBudgetTokens = 16000

// MinBudgetTokens is the smallest budget a result may have: a page holds at least its frame and
// one entry. A Config below it is raised to it; `engram mcp --max-tokens` below it is refused.
const MinBudgetTokens = 500

// protocolVersions are the handshake-era versions this server speaks: its identity model
// (clientInfo at initialize, the roots a session may name) is per session.
var protocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// Config is one server's transport-side context.
type Config struct {
	// Agent is --agent: the agent every session acts for; empty takes each client's
	// clientInfo.name, normalised.
	Agent string
	// Workdir is --workdir: the project of every session (plus each client's roots).
	Workdir string
	// Home is Engram's home, where the HTTP sessions their clients ended are written down so
	// that a restart does not revive them (ended.go); empty keeps them in memory only.
	Home string
	// Transport is api.TransportStdio or api.TransportHTTP (recorded with the agents).
	Transport string
	// BudgetTokens bounds one tool result (default DefaultBudgetTokens).
	BudgetTokens int
	// RecordEvery is how often a session's calls are written to the shared agents table.
	RecordEvery time.Duration
	Version     string
	Logger      *slog.Logger
}

// Server is one MCP server over an api acting as "tool".
type Server struct {
	api      *api.API
	cfg      Config
	srv      *sdk.Server
	sessions sync.Map // *sdk.ServerSession → *session
	unsub    func()
	index    *sdk.Resource
	// schemas are the input schemas of the tools, by name (argument checks, next calls).
	schemas map[string]map[string]any
	// resolved and props are those schemas, and each of their properties, compiled: a
	// suggested next call is made only when it fits (nextcall.go).
	resolved map[string]*jsonschema.Resolved
	props    map[string]map[string]*jsonschema.Resolved
	// revived are the SDK ids of HTTP sessions revived after a restart (httprevive.go).
	revived sync.Map
}

// Errors of a server that cannot start.
var (
	ErrNotTool      = errors.New("mcp: the MCP api must act as \"tool\"")
	ErrInvalidAgent = errors.New("mcp: --agent must be lowercase letters, digits, dots, dashes or underscores (at most 63)")
	ErrWorkdir      = errors.New("mcp: --workdir must be an absolute path")
)

// New builds the server over a (acting as "tool": what a model writes is audited as the
// tool's and lands unreviewed) and hub (memory changes become list-changed notifications).
func New(a *api.API, hub *api.Hub, cfg Config) (*Server, error) {
	if a == nil || a.Actor() != api.ActorTool {
		return nil, ErrNotTool
	}
	if cfg.Agent != "" && !api.ValidAgent(cfg.Agent) {
		return nil, ErrInvalidAgent
	}
	if cfg.Workdir != "" {
		if !filepath.IsAbs(cfg.Workdir) {
			return nil, ErrWorkdir
		}
		// Resolved once, here: a link the model repoints later does not move every session
		// of this server to another folder (resolveWorkdir).
		cfg.Workdir = realFolder(filepath.Clean(cfg.Workdir))
	}
	if cfg.Transport != api.TransportHTTP {
		cfg.Transport = api.TransportStdio
	}
	if cfg.BudgetTokens <= 0 {
		cfg.BudgetTokens = DefaultBudgetTokens
	}
	cfg.BudgetTokens = max(cfg.BudgetTokens, MinBudgetTokens)
	if cfg.RecordEvery <= 0 {
		cfg.RecordEvery = 5 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &Server{api: a, cfg: cfg}
	s.srv = sdk.NewServer(&sdk.Implementation{Name: "engram", Title: "Engram", Version: cfg.Version}, &sdk.ServerOptions{
		Instructions:              api.MCPInstructions,
		Logger:                    cfg.Logger,
		SupportedProtocolVersions: protocolVersions,
		Capabilities:              &sdk.ServerCapabilities{},
		InitializedHandler: func(_ context.Context, req *sdk.InitializedRequest) {
			st := s.sessionFor(req.Session)
			s.record(st, "initialize")
		},
		// What a session reads of its memories is its caller's alone: clients and proxies
		// must not share it (the SDK's default is "public").
		SetCacheable: func(_ context.Context, req sdk.Request, c *sdk.Cacheable) {
			switch req.(type) {
			case *sdk.ReadResourceRequest, *sdk.ListResourcesRequest:
				c.CacheScope = cachePrivate
			}
		},
		SubscribeHandler:   s.subscribe,
		UnsubscribeHandler: func(context.Context, *sdk.UnsubscribeRequest) error { return nil },
		RootsListChangedHandler: func(_ context.Context, req *sdk.RootsListChangedRequest) {
			st := s.sessionFor(req.Session)
			st.mu.Lock()
			st.rootsOK = false
			st.mu.Unlock()
		},
	})
	s.register()
	s.registerResources()
	s.srv.AddReceivingMiddleware(s.protocolGuard, s.protocolWords)
	if hub != nil {
		s.unsub = hub.Subscribe(func(name string, data any) {
			if name == api.EventMemoryChanged {
				s.memoriesChanged(data)
			}
		})
	}
	return s, nil
}

// cachePrivate is the cacheScope of per-caller results.
const cachePrivate = "private"

// protocolGuard answers, with a JSON-RPC code and the person's language, what the SDK answered
// with error code 0: a second initialize, one without a protocol version (the HTTP and stdio
// checks refuse that one first), and any other failure a handler returns without a code.
func (s *Server) protocolGuard(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if r, ok := req.(*sdk.ServerRequest[*sdk.InitializeParams]); ok && method == "initialize" {
			if r.Session != nil && r.Session.InitializeParams() != nil {
				return nil, s.protocolError(rpcInvalidRequest, "mcp_already_initialized", nil)
			}
			if r.Params == nil || r.Params.ProtocolVersion == "" {
				return nil, s.protocolError(rpcInvalidParams, "mcp_protocol_version_required", nil)
			}
		}
		res, err := next(ctx, method, req)
		var coded *jsonrpc.Error
		if err != nil && !errors.As(err, &coded) {
			err = &uncoded{coded: &jsonrpc.Error{Code: rpcInternalError, Message: err.Error()}, cause: err}
		}
		return res, err
	}
}

// uncoded gives a failure that has no JSON-RPC code the code -32603, keeping what it wraps:
// the SDK still finds its own sentinels in it.
type uncoded struct {
	coded *jsonrpc.Error
	cause error
}

func (e *uncoded) Error() string   { return e.cause.Error() }
func (e *uncoded) Unwrap() []error { return []error{e.coded, e.cause} }

// Close stops listening to the api's events and writes the sessions' last calls.
func (s *Server) Close() {
	if s.unsub != nil {
		s.unsub()
		s.unsub = nil
	}
	s.flushAll()
}

// flushAll writes every session's last call (the process or the bridge is going away).
func (s *Server) flushAll() {
	s.sessions.Range(func(_, v any) bool {
		s.flush(v.(*session))
		return true
	})
}

// Run serves one client over t (stdio: &sdk.StdioTransport{}) until it disconnects or ctx ends.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	err := s.srv.Run(ctx, t)
	// The session is over: its last calls are written before the process closes the store.
	s.flushAll()
	if err != nil && (errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) || strings.Contains(err.Error(), "EOF")) {
		return nil
	}
	return err
}

// RunStdio serves the client on the other end of in and out (the process's stdin and stdout),
// over this package's own line transport (stdio.go).
func (s *Server) RunStdio(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
	return s.Run(ctx, &stdioTransport{s: s, in: in, out: out})
}
