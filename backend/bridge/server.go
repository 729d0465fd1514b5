// Package bridge serves the web UI and JSON-RPC 2.0 over a websocket on localhost, so a
// browser gets the same operations as the desktop window. Every request needs the
// per-install token; Host and Origin are checked so other web pages and DNS-rebinding hosts
// cannot reach it.
package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"engram/backend/api"
)

// ErrRemoteNotAllowed is returned for a non-loopback address without AllowRemote.
var ErrRemoteNotAllowed = errors.New("bridge: refusing to listen on a non-loopback address without --allow-remote")

// ErrInvalidAddr is returned for an address that is not host:port with a port from 0 to
// 65535 (the caller says so in the person's language; it was an "internal" error that
// repeated the resolver's English).
var ErrInvalidAddr = errors.New("bridge: invalid address")

// ClientInfo describes one connected client.
type ClientInfo struct {
	ID          int64     `json:"id"`
	RemoteAddr  string    `json:"remote_addr"`
	UserAgent   string    `json:"user_agent"`
	ConnectedAt time.Time `json:"connected_at"`
	Requests    int64     `json:"requests"`
}

// Server is one bridge.
type Server struct {
	cfg Config
	api *api.API
	hub *api.Hub
	ui  fs.FS
	// scripts are the CSP sources of index.html's inline scripts (csp.go).
	scripts []string
	token   atomic.Value // string
	// tokenSeen is the token file as last read (os.FileInfo): another process on the home
	// (`engram bridge token --regenerate`) replaces the file, and Token notices.
	tokenSeen atomic.Value
	// regenerating is set while this process replaces the file itself (RegenerateToken
	// revokes on its own schedule, after the caller's answer).
	regenerating atomic.Bool
	// tokenTick counts watchToken's ticks, tokenLooked the tick the last look at the file
	// answered for (liveToken looks when they differ; tests tick by hand); tokenMu orders the
	// looks (token.go).
	tokenTick, tokenLooked atomic.Int64
	tokenMu                sync.Mutex
	// retired are the fingerprints of the tokens this home's token replaced (retired.go).
	retired atomic.Value // []string

	mu        sync.Mutex
	listeners []net.Listener
	srv       *http.Server
	port      int
	hosts     map[string]bool
	clients   map[int64]*client
	nextID    int64
	unsub     func()
	started   bool
	published string         // the URL written to bridge.json, "" when none
	conns     sync.WaitGroup // websocket handlers, hijacked so Shutdown does not wait for them

	// secret is the home's MCP session secret, read on first use; key is the key made from it
	// and keyToken (sessionkey.go).
	secretMu     sync.Mutex
	secret, key  []byte
	keyToken     string
	secretWarned bool

	open atomic.Int64 // connections accepted and not yet closed (HTTP and websocket)
	// stalled are the connections waiting on their client, which may be closed to make room
	// at the cap (limits.go).
	stalledMu sync.Mutex
	stalled   map[*countedConn]stall
	// stallGrace is how long a connection waits on its client before it may be closed to make
	// room (defaultStallGrace; tests shorten it).
	stallGrace time.Duration
	refusers   chan struct{} // bounds the goroutines answering 503 beyond MaxConns
	// closing bounds the evicted websockets whose close frame is under way (limits.go), and
	// evictCloseWait how long each may take (defaultEvictCloseWait; tests change it).
	closing        chan struct{}
	evictCloseWait time.Duration
	// streams are the open MCP event streams (token.go); stopWatch ends watchToken.
	streamsMu sync.Mutex
	streams   map[*stream]bool
	stopWatch context.CancelFunc
	// onTokenStat, when set (tests), hears every look at the token file liveToken makes.
	onTokenStat func()
	// onPing, when set (tests), hears the outcome of every websocket ping.
	onPing func(id int64, err error)
	// onConnState, when set (tests), hears every connection's state after the stalled set has it.
	onConnState func(net.Conn, http.ConnState)
	// onAccept, when set (tests), sees every accepted connection before it is served.
	onAccept func(net.Conn)
	// beforeRegister, when set (tests), runs after a websocket handshake is answered and
	// before its client is registered.
	beforeRegister func()
}

// New builds a bridge over a (the api acting as "bridge"), hub (events) and ui (the built
// web UI, may be nil).
func New(cfg Config, a *api.API, hub *api.Hub, ui fs.FS) (*Server, error) {
	cfg.defaults()
	// Desktop-only calls (token regeneration, keep_review imports) are refused by the api
	// for any actor but the user: the bridge's api must never act as the user.
	if a != nil && a.Actor() == api.ActorUser {
		return nil, errors.New("bridge: the bridge api must act as \"bridge\", not as the user")
	}
	s := &Server{cfg: cfg, api: a, hub: hub, ui: ui, scripts: inlineScripts(ui), clients: map[int64]*client{}, refusers: make(chan struct{}, 16),
		closing: make(chan struct{}, 16), evictCloseWait: defaultEvictCloseWait,
		stalled: map[*countedConn]stall{}, stallGrace: defaultStallGrace,
		streams: map[*stream]bool{}}
	tok, err := LoadOrCreateToken(cfg.Home)
	if err != nil {
		return nil, err
	}
	s.token.Store(tok)
	if fi, err := os.Stat(filepath.Join(cfg.Home, TokenFile)); err == nil {
		s.tokenSeen.Store(fi)
	}
	s.loadRetired()
	return s, nil
}

// isLoopback reports whether host (no port) is a loopback name or address.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Start listens and serves until Stop. On a loopback address it listens on both 127.0.0.1
// and ::1 (when the machine has IPv6).
func (s *Server) Start() error {
	s.mu.Lock()
	already := s.started
	s.mu.Unlock()
	if already {
		return nil
	}
	host, portStr, err := net.SplitHostPort(s.cfg.Addr)
	if err != nil {
		return fmt.Errorf("%w %q: %v", ErrInvalidAddr, s.cfg.Addr, err)
	}
	if n, err := strconv.Atoi(portStr); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("%w %q: the port must be a number from 0 to 65535", ErrInvalidAddr, s.cfg.Addr)
	}
	if host == "" {
		host = "0.0.0.0"
	}
	if !isLoopback(host) && !s.cfg.AllowRemote {
		return ErrRemoteNotAllowed
	}
	first := host
	if strings.EqualFold(host, "localhost") {
		first = "127.0.0.1"
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(first, portStr))
	if err != nil {
		return fmt.Errorf("bridge: unable to listen on %s: %w", s.cfg.Addr, err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	lns := []net.Listener{ln}
	if isLoopback(host) && first == "127.0.0.1" {
		if ln6, err := net.Listen("tcp", net.JoinHostPort("::1", strconv.Itoa(port))); err == nil {
			lns = append(lns, ln6)
		}
	}
	hosts := map[string]bool{}
	p := strconv.Itoa(port)
	for _, h := range []string{"127.0.0.1", "localhost", "[::1]"} {
		hosts[h+":"+p] = true
	}
	// The address asked for is a name of this bridge too (127.0.0.2, ::1, a LAN address);
	// an IP literal cannot be rebound by DNS.
	if ip := net.ParseIP(host); ip != nil && !ip.IsUnspecified() {
		hosts[strings.ToLower(net.JoinHostPort(ip.String(), p))] = true
	} else if !isLoopback(host) && ip == nil {
		hosts[strings.ToLower(net.JoinHostPort(host, p))] = true
	}
	for i, l := range lns {
		lns[i] = &capListener{Listener: l, s: s}
	}
	s.mu.Lock()
	s.listeners, s.port, s.hosts, s.started = lns, port, hosts, true
	s.srv = &http.Server{Handler: s.Handler(), ReadHeaderTimeout: s.cfg.ReadHeaderTimeout,
		ReadTimeout: s.cfg.ReadTimeout, WriteTimeout: s.cfg.WriteTimeout, IdleTimeout: s.cfg.IdleTimeout, ConnState: s.connState,
		ConnContext: withConn,
		ErrorLog:    slog.NewLogLogger(s.cfg.Logger.Handler(), slog.LevelDebug)}
	s.mu.Unlock()
	if s.hub != nil {
		unsub := s.hub.Subscribe(s.broadcast)
		s.mu.Lock()
		s.unsub = unsub
		s.mu.Unlock()
	}
	wctx, stopWatch := context.WithCancel(context.Background())
	s.mu.Lock()
	s.stopWatch = stopWatch
	s.mu.Unlock()
	go s.watchToken(wctx)
	for _, l := range lns {
		go func(l net.Listener) {
			if err := s.srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
				s.cfg.Logger.Error("bridge: serve failed", "err", err)
			}
		}(l)
	}
	s.publish()
	return nil
}

// publish tells other processes of this home where the bridge listens (bridge.json), so
// an agent's hook hands its turns to this process instead of starting one. A bridge that
// cannot publish still serves; hooks then run their extraction themselves.
func (s *Server) publish() {
	if s.cfg.Home == "" {
		return
	}
	u := s.URL()
	if i := strings.IndexByte(u, '#'); i >= 0 {
		u = u[:i]
	}
	u = strings.TrimSuffix(u, "/")
	if err := api.PublishBridge(s.cfg.Home, u, os.Getpid()); err != nil {
		s.cfg.Logger.Warn("bridge: unable to publish its address for hooks", "err", err)
		return
	}
	s.mu.Lock()
	s.published = u
	s.mu.Unlock()
}

// Port is the port listened on (useful with :0).
func (s *Server) Port() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.port
}

// Addr is the address actually listened on (the port filled in when it was :0).
func (s *Server) Addr() string {
	host, _, _ := net.SplitHostPort(s.cfg.Addr)
	if host == "" {
		host = "0.0.0.0"
	}
	return net.JoinHostPort(host, strconv.Itoa(s.Port()))
}

// URL is the address to open in a browser, token included in the fragment (never sent to
// the server in requests, never logged by proxies).
func (s *Server) URL() string {
	host, _, _ := net.SplitHostPort(s.cfg.Addr)
	ip := net.ParseIP(host)
	switch {
	case host == "" || strings.EqualFold(host, "localhost") || (ip != nil && ip.IsUnspecified()):
		host = "127.0.0.1" // listened on 127.0.0.1 (and ::1), or on every address
	case ip != nil:
		host = ip.String() // the spelling the Host check accepts
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(s.Port())) + "/#token=" + url.QueryEscape(s.Token())
}

// Stop closes every connection and the listeners.
func (s *Server) Stop(ctx context.Context) error {
	s.mu.Lock()
	srv, started, unsub, published, stopWatch := s.srv, s.started, s.unsub, s.published, s.stopWatch
	s.started, s.unsub, s.published, s.stopWatch = false, nil, "", nil
	clients := make([]*client, 0, len(s.clients))
	for _, c := range s.clients {
		clients = append(clients, c)
	}
	s.mu.Unlock()
	if !started {
		return nil
	}
	if stopWatch != nil {
		stopWatch()
	}
	if published != "" {
		if err := api.UnpublishBridge(s.cfg.Home, published, os.Getpid()); err != nil {
			s.cfg.Logger.Warn("bridge: unable to remove its published address", "err", err)
		}
	}
	if unsub != nil {
		unsub()
	}
	for _, c := range clients {
		c.drop("server stopping")
	}
	err := srv.Shutdown(ctx)
	done := make(chan struct{})
	go func() { s.conns.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
	}
	return err
}

// Clients lists connected clients.
func (s *Server) Clients() []ClientInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]ClientInfo, 0, len(s.clients))
	for _, c := range s.clients {
		out = append(out, c.info())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Handler is the one route table of the bridge.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	// Routes by path only (method patterns beside a path-only one conflict in the mux), each
	// taking its own methods: any other is refused in the person's language, naming what the
	// route takes (the mux's method patterns answered "Method Not Allowed" in English plain
	// text); a method / does not take anywhere is handleNoRoute's (noroute.go).
	mux.Handle("/ws", s.methods("GET", http.HandlerFunc(s.handleWS)))
	mux.Handle("/healthz", s.methods("GET, HEAD", http.HandlerFunc(s.handleHealth)))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			s.handleUI(w, r)
			return
		}
		s.handleNoRoute(w, r)
	})
	if s.cfg.MCP != nil {
		// PUT and PATCH reach MCP's handler too, to be refused there in the person's language;
		// any other method (OPTIONS) is handleNoRoute's 405.
		guarded := s.mcpGuard(s.cfg.MCP)
		mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
			switch r.Method {
			case http.MethodGet, http.MethodPost, http.MethodDelete, http.MethodPut, http.MethodPatch:
				guarded.ServeHTTP(w, r)
			default:
				s.handleNoRoute(w, r)
			}
		})
	}
	return s.guard(mux)
}

// guard refuses requests whose Host is not this bridge: a DNS-rebinding page resolves its
// own name to 127.0.0.1, but its requests still carry that name in Host.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.hostAllowed(r.Host) {
			s.httpError(w, http.StatusForbidden, "bridge_bad_host", map[string]any{"Host": r.Host})
			return
		}
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Content-Security-Policy", csp(r.Host, s.scripts))
		next.ServeHTTP(w, r)
	})
}

func (s *Server) httpError(w http.ResponseWriter, status int, code string, args map[string]any) {
	e := s.api.Error(code, args)
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(e)
}

func (s *Server) handleHealth(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"ok":true}`))
}

// handleUI serves the built web UI; unknown paths get index.html so client routes work.
func (s *Server) handleUI(w http.ResponseWriter, r *http.Request) {
	if wantsEventStream(r) {
		s.noRoute(w, r) // an MCP client of the older HTTP+SSE transport, not a browser
		return
	}
	if strings.HasPrefix(r.URL.Path, "/.well-known/") {
		// An MCP client's OAuth discovery after a 401 (the TypeScript SDK's): the web UI's page
		// with 200 read as broken JSON, hiding the 401's words. The bridge takes no OAuth.
		s.noRoute(w, r)
		return
	}
	if !hasUI(s.ui) {
		s.serveNoUI(w, r)
		return
	}
	p := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if p == "" {
		p = "index.html"
	}
	if info, err := fs.Stat(s.ui, p); err != nil || info.IsDir() {
		p = "index.html"
	}
	if p == "index.html" {
		w.Header().Set("Cache-Control", "no-cache")
	} else {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	}
	http.ServeFileFS(w, r, s.ui, p)
}

// requestToken takes the token from ?token= (browsers cannot set headers on a websocket) or
// an Authorization: Bearer header, whose scheme is read in any case as HTTP says (a client
// sending "bearer …" was refused here while /mcp took it).
func requestToken(r *http.Request) string {
	if t := r.URL.Query().Get("token"); t != "" {
		return t
	}
	if a := r.Header.Get("Authorization"); len(a) > 7 && strings.EqualFold(a[:7], "Bearer ") {
		return strings.TrimSpace(a[7:])
	}
	return ""
}

func (s *Server) broadcast(name string, data any) {
	b, err := json.Marshal(rpcNotification{JSONRPC: "2.0", Method: "event", Params: eventParams{Name: name, Data: data}})
	if err != nil {
		return
	}
	tok := s.liveToken()
	for _, c := range s.clientList() {
		if c.current(tok) && c.wants(name) {
			c.send(b)
		}
	}
}

// clientList is the connections now, taken under the lock and used outside it.
func (s *Server) clientList() []*client {
	s.mu.Lock()
	defer s.mu.Unlock()
	clients := make([]*client, 0, len(s.clients))
	for _, c := range s.clients {
		clients = append(clients, c)
	}
	return clients
}
