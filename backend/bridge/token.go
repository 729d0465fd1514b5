package bridge

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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
