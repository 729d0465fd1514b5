package bridge

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// TokenFile is where the per-install token lives, readable only by its owner.
const TokenFile = "bridge.token"

// LoadOrCreateToken returns the home's bridge token, creating one on first use.
func LoadOrCreateToken(home string) (string, error) {
	data, err := os.ReadFile(filepath.Join(home, TokenFile))
	if err == nil {
		tok := strings.TrimSpace(string(data))
		if len(tok) >= 32 {
			return tok, nil
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("bridge: unable to read token: %w", err)
	}
	return RegenerateToken(home)
}

// RegenerateToken replaces the token; connected clients keep their session until they reconnect.
func RegenerateToken(home string) (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("bridge: unable to make a token: %w", err)
	}
	tok := hex.EncodeToString(b)
	if err := os.MkdirAll(home, 0o700); err != nil {
		return "", fmt.Errorf("bridge: unable to create home: %w", err)
	}
	// The token replaced is remembered by its fingerprint, so its clients hear it was
	// regenerated (retired.go). A list that cannot be written only costs them that hint: the
	// regenerate itself goes on.
	if old, err := os.ReadFile(filepath.Join(home, TokenFile)); err == nil {
		_ = retire(home, strings.TrimSpace(string(old)))
	}
	tmp := filepath.Join(home, TokenFile+".tmp")
	if err := os.WriteFile(tmp, []byte(tok+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("bridge: unable to write token: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(home, TokenFile)); err != nil {
		return "", fmt.Errorf("bridge: unable to save token: %w", err)
	}
	return tok, nil
}

func tokenEqual(a, b string) bool {
	return len(a) > 0 && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// tokenCheckEvery is how often, at most, the messages, events and pings of a running bridge
// look at the token file (liveToken, watchToken).
const tokenCheckEvery = time.Second

// Token is the current token, the file looked at now: a new websocket, an MCP request and the
// person's own view (remote.status, the URL) get the token the person has, even in the second
// after the CLI replaced it. A file another process replaced (the CLI's regenerate, while this
// server runs) takes effect at once: the old token stops opening connections and the ones it
// opened are closed, as a regenerate from this process does.
func (s *Server) Token() string {
	s.tokenMu.Lock()
	s.lookAtTokenFile()
	s.tokenMu.Unlock()
	return s.token.Load().(string)
}

// liveToken is the current token for the calls of open connections (each message, each event
// sent to each client, each ping): it is read from memory, and the file is looked at by the
// first call after each tick of watchToken (every tokenCheckEvery). A stat per call cost every
// message and every event a system call (reading the clock costs one too on some machines: the
// ticks stand for it), for a file that changes only when the person regenerates. A token another
// process replaced is taken up, and its connections closed, at the first call after the next
// tick; watchToken looks on its own for quiet connections.
func (s *Server) liveToken() string {
	if s.tokenTick.Load() != s.tokenLooked.Load() {
		s.tokenMu.Lock()
		// Calls that came meanwhile wait here for the look under way: none of them goes on
		// with a token the file no longer holds.
		if s.tokenTick.Load() != s.tokenLooked.Load() {
			if s.onTokenStat != nil {
				s.onTokenStat()
			}
			s.lookAtTokenFile()
		}
		s.tokenMu.Unlock()
	}
	return s.token.Load().(string)
}

// lookAtTokenFile checks the file (checkTokenFile) and notes the tick it answers for, read
// before the look: a file replaced after that tick is seen by this look or after the next
// tick. tokenMu is held.
func (s *Server) lookAtTokenFile() {
	tick := s.tokenTick.Load()
	s.checkTokenFile()
	s.tokenLooked.Store(tick)
}

// checkTokenFile takes up a token file another process replaced, closing what was opened with
// the old token.
func (s *Server) checkTokenFile() {
	fi, err := os.Stat(filepath.Join(s.cfg.Home, TokenFile))
	if err != nil || s.regenerating.Load() {
		return
	}
	if prev, ok := s.tokenSeen.Load().(os.FileInfo); ok && os.SameFile(prev, fi) && prev.ModTime().Equal(fi.ModTime()) && prev.Size() == fi.Size() {
		return
	}
	s.tokenSeen.Store(fi)
	data, err := os.ReadFile(filepath.Join(s.cfg.Home, TokenFile))
	if err != nil {
		return
	}
	if tok := strings.TrimSpace(string(data)); len(tok) >= 32 && tok != s.token.Load().(string) {
		s.token.Store(tok)
		s.loadRetired()
		s.cfg.Logger.Info("bridge: the token file changed; connections made with the old token are closed")
		go s.revokeStale()
		if s.cfg.OnTokenChange != nil {
			go s.cfg.OnTokenChange()
		}
	}
}

// revokeStale closes every websocket and MCP event stream opened with a token other than the
// current one. Those opened with the new token stay (a client that reconnected within the
// moment a regenerate waits before revoking was closed with the rest).
func (s *Server) revokeStale() {
	tok := s.token.Load().(string)
	for _, c := range s.clientList() {
		c.current(tok)
	}
	s.streamsMu.Lock()
	for st := range s.streams {
		if !tokenEqual(st.token, tok) {
			st.cancel()
		}
	}
	s.streamsMu.Unlock()
}

// stream is an MCP event stream (a GET on /mcp that stays open), with the token it was opened
// with: it is ended when that token is replaced.
type stream struct {
	token  string
	cancel context.CancelFunc
}

// openStream registers an MCP event stream until the returned func is called.
func (s *Server) openStream(token string, cancel context.CancelFunc) func() {
	st := &stream{token: token, cancel: cancel}
	s.streamsMu.Lock()
	s.streams[st] = true
	s.streamsMu.Unlock()
	return func() {
		s.streamsMu.Lock()
		delete(s.streams, st)
		s.streamsMu.Unlock()
	}
}

// watchToken ticks every tokenCheckEvery (liveToken's next call looks at the file) and reads
// the file every PingInterval until ctx ends, so a token replaced by another process (`engram
// bridge token --regenerate`) revokes what was opened with the old one even while no client
// sends anything: a quiet websocket, an MCP event stream.
func (s *Server) watchToken(ctx context.Context) {
	tick := time.NewTicker(tokenCheckEvery)
	defer tick.Stop()
	t := time.NewTicker(s.cfg.PingInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			s.tokenTick.Add(1)
		case <-t.C:
			s.Token()
		}
	}
}

// RegenerateToken makes a new token; existing connections stay, new ones need the new token.
func (s *Server) RegenerateToken() (string, error) {
	s.regenerating.Store(true)
	defer s.regenerating.Store(false)
	tok, err := RegenerateToken(s.cfg.Home)
	if err != nil {
		return "", err
	}
	s.token.Store(tok)
	if fi, err := os.Stat(filepath.Join(s.cfg.Home, TokenFile)); err == nil {
		s.tokenSeen.Store(fi)
	}
	s.loadRetired()
	// A regenerate revokes: every connection made with the old token is closed once the
	// caller's own answer has had time to go out (the caller reconnects with the new token).
	time.AfterFunc(500*time.Millisecond, s.revokeStale)
	return tok, nil
}
