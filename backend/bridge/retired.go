package bridge

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
)

// RetiredFile keeps the fingerprints (SHA-256) of the last tokens a regenerate replaced, so a
// client still holding one is told the token was regenerated rather than that it is wrong. A
// fingerprint says nothing of its token: only who had that token can present it.
const RetiredFile = "bridge.token.retired"

// retiredKept is how many replaced tokens are still recognised.
const retiredKept = 3

// fingerprint is what RetiredFile keeps of a token.
func fingerprint(tok string) string {
	sum := sha256.Sum256([]byte("engram bridge token\x00" + tok))
	return hex.EncodeToString(sum[:])
}

// readRetired returns the home's retired fingerprints, newest first (none when the file is
// missing or unreadable: a replaced token then gets the usual refusal).
func readRetired(home string) []string {
	data, err := os.ReadFile(filepath.Join(home, RetiredFile))
	if err != nil {
		return nil
	}
	var out []string
	for _, l := range strings.Fields(string(data)) {
		if len(l) == sha256.Size*2 && len(out) < retiredKept {
			out = append(out, l)
		}
	}
	return out
}

// retire adds old's fingerprint to the home's retired list before a regenerate replaces it
// (written first, so a bridge that sees the new token file finds the old token listed).
func retire(home, old string) error {
	if len(old) < 32 {
		return nil
	}
	list := append([]string{fingerprint(old)}, readRetired(home)...)
	if len(list) > retiredKept {
		list = list[:retiredKept]
	}
	tmp := filepath.Join(home, RetiredFile+".tmp")
	if err := os.WriteFile(tmp, []byte(strings.Join(list, "\n")+"\n"), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(home, RetiredFile))
}

// loadRetired reads the retired list into the server (at start, and when the token changes).
func (s *Server) loadRetired() {
	s.retired.Store(readRetired(s.cfg.Home))
}

// wasToken reports whether tok is one of the tokens a regenerate replaced.
func (s *Server) wasToken(tok string) bool {
	if len(tok) < 32 {
		return false
	}
	list, _ := s.retired.Load().([]string)
	fp := fingerprint(tok)
	for _, r := range list {
		if subtle.ConstantTimeCompare([]byte(fp), []byte(r)) == 1 {
			return true
		}
	}
	return false
}

// refusalCode is the error a refused token gets: code (bridge_unauthorized, mcp_unauthorized),
// or its _token_regenerated twin when the token was this home's before a regenerate: the person
// needs to fetch the new one, and "missing or wrong" sent them to retype the old.
func (s *Server) refusalCode(tok, code string) string {
	if !s.wasToken(tok) {
		return code
	}
	if code == "mcp_unauthorized" {
		return "mcp_token_regenerated"
	}
	return "bridge_token_regenerated"
}
