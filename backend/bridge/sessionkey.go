package bridge

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// SessionSecretFile holds the home's secret MCP session ids are signed with, readable only by
// its owner. Ids signed with it are taken back after Engram restarts (the client keeps its
// session and its agent); a home without it, or another home, takes none of them.
const SessionSecretFile = "mcp-session.secret"

// loadOrCreateSessionSecret returns the home's session secret, creating it on first use. Two
// processes on one home creating it at once agree on one: it is written under a name of its
// own and linked into place, and the one that finds it there reads the other's.
func loadOrCreateSessionSecret(home string) ([]byte, error) {
	path := filepath.Join(home, SessionSecretFile)
	read := func() ([]byte, error) {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		b, err := hex.DecodeString(strings.TrimSpace(string(data)))
		if err != nil || len(b) < 32 {
			return nil, fmt.Errorf("bridge: the session secret %s is damaged", path)
		}
		return b, nil
	}
	b, err := read()
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return b, err
	}
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, fmt.Errorf("bridge: unable to make a session secret: %w", err)
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, fmt.Errorf("bridge: unable to create home: %w", err)
	}
	tmp, err := os.CreateTemp(home, SessionSecretFile+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("bridge: unable to write the session secret: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.WriteString(hex.EncodeToString(secret) + "\n")
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp.Name(), 0o600)
	}
	if werr != nil {
		return nil, fmt.Errorf("bridge: unable to write the session secret: %w", werr)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return read()
		}
		return nil, fmt.Errorf("bridge: unable to save the session secret: %w", err)
	}
	return secret, nil
}

// sessionKey is the key MCP session ids are signed with while tok is the token: the home's
// secret and the token together, so that a regenerated token revokes every session made
// before it (its id no longer verifies, and its client starts a new session with the new
// token). Nil when the secret cannot be had: sessions then work but are not taken back.
func (s *Server) sessionKey(tok string) []byte {
	s.secretMu.Lock()
	defer s.secretMu.Unlock()
	if s.secret == nil {
		secret, err := loadOrCreateSessionSecret(s.cfg.Home)
		if err != nil {
			if !s.secretWarned { // asked again on each request (the home may be fixed), said once
				s.secretWarned = true
				s.cfg.Logger.Warn("bridge: MCP sessions will not outlive a restart", "err", err)
			}
			return nil
		}
		s.secret = secret
	}
	if s.keyToken != tok || s.key == nil {
		m := hmac.New(sha256.New, s.secret)
		m.Write([]byte("engram mcp session ids\x00" + tok))
		s.key, s.keyToken = m.Sum(nil), tok
	}
	return s.key
}
