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

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"engram/backend/api"
)

// DefaultBudgetTokens bounds one tool result (estimated by EstimateTokens); longer lists page.
const DefaultBudgetTokens = 20000

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
		cfg.Workdir = filepath.Clean(cfg.Workdir)
	}
	if cfg.Transport != api.TransportHTTP {
		cfg.Transport = api.TransportStdio
	}
	if cfg.BudgetTokens <= 0 {
		cfg.BudgetTokens = DefaultBudgetTokens
	}
	cfg.BudgetTokens = max(cfg.BudgetTokens, 500)
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
	if hub != nil {
		s.unsub = hub.Subscribe(func(name string, data any) {
			if name == api.EventMemoryChanged {
				s.memoriesChanged(data)
			}
		})
	}
	return s, nil
}

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

// RunStdio serves the client on the other end of in and out (the process's stdin and stdout).
func (s *Server) RunStdio(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
	return s.Run(ctx, &sdk.IOTransport{Reader: in, Writer: out})
}
