package mcp

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf8"
)

// An HTTP session's id is signed: it carries what the session was opened with — the agent its
// client's initialize named, the client's name, whether it declared roots, the protocol version
// negotiated — under an HMAC made with the key the bridge hands over with each request (the
// home's session secret and the bridge token). After Engram restarts, a client that keeps its
// id (Claude Code does) gets a session revived with all of it (httprevive.go). An id that does
// not verify — made up, altered, from another home, from before the token was regenerated — is
// a session that does not exist: 404, and the client starts a new one. What an id carries is
// only ever what this server put in it, so crafting one cannot name another agent.

// sessionClaims are what a session id carries.
type sessionClaims struct {
	agent   string // NormalizeAgent of the client's name ("" for none)
	client  string // the client's name and version, for the audit log
	roots   bool   // the client declared the roots capability
	version string // the protocol version its initialize negotiated
}

// Bounds of a session id's fields: an agent name's, and the client name cut to keep the id short.
const (
	idFormat    = 1
	idNonce     = 16
	idMAC       = 16
	idMaxClient = 48
)

// claimsOf are the claims of a session opened by an initialize with params, negotiating version.
func claimsOf(params json.RawMessage, version string) sessionClaims {
	var p struct {
		Capabilities struct {
			Roots json.RawMessage `json:"roots"`
		} `json:"capabilities"`
		ClientInfo struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"clientInfo"`
	}
	_ = json.Unmarshal(params, &p)
	roots := len(p.Capabilities.Roots) > 0 && string(p.Capabilities.Roots) != "null"
	return sessionClaims{agent: NormalizeAgent(p.ClientInfo.Name), client: clientLabel(p.ClientInfo.Name, p.ClientInfo.Version),
		roots: roots, version: version}
}

// clientLabel is "name version" as the audit log shows it, cut to idMaxClient bytes on a
// character boundary.
func clientLabel(name, version string) string {
	s := strings.TrimSpace(name + " " + version)
	for len(s) > idMaxClient {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return s
}

// mintSessionID is a new session id carrying c, signed with key.
func mintSessionID(key []byte, c sessionClaims) string {
	payload := []byte{idFormat}
	nonce := make([]byte, idNonce)
	_, _ = rand.Read(nonce)
	payload = append(payload, nonce...)
	flags := byte(0)
	if c.roots {
		flags |= 1
	}
	payload = append(payload, flags, byte(max(slices.Index(protocolVersions, c.version), 0)))
	payload = append(payload, byte(len(c.agent)))
	payload = append(payload, c.agent...)
	payload = append(payload, byte(len(c.client)))
	payload = append(payload, c.client...)
	return base64.RawURLEncoding.EncodeToString(append(payload, idSign(key, payload)...))
}

// readSessionID returns what id carries when key signed it.
func readSessionID(key []byte, id string) (sessionClaims, bool) {
	// Strict: the unused bits of the last character must be zero, or two ids would name one
	// payload (and the second would open a second session of it).
	raw, err := base64.RawURLEncoding.Strict().DecodeString(id)
	if len(key) == 0 || err != nil || len(raw) < 1+idNonce+3+1+idMAC {
		return sessionClaims{}, false
	}
	payload, mac := raw[:len(raw)-idMAC], raw[len(raw)-idMAC:]
	if !hmac.Equal(mac, idSign(key, payload)) || payload[0] != idFormat {
		return sessionClaims{}, false
	}
	rest := payload[1+idNonce:]
	c := sessionClaims{roots: rest[0]&1 != 0}
	if int(rest[1]) >= len(protocolVersions) {
		return sessionClaims{}, false
	}
	c.version = protocolVersions[rest[1]]
	rest = rest[2:]
	field := func() (string, bool) {
		if len(rest) < 1 || len(rest) < 1+int(rest[0]) {
			return "", false
		}
		s := string(rest[1 : 1+int(rest[0])])
		rest = rest[1+int(rest[0]):]
		return s, true
	}
	var ok1, ok2 bool
	c.agent, ok1 = field()
	c.client, ok2 = field()
	// Signed here, so well formed; checked all the same, as everything a client sends is.
	if !ok1 || !ok2 || len(rest) != 0 || NormalizeAgent(c.agent) != c.agent || !utf8.ValidString(c.client) {
		return sessionClaims{}, false
	}
	return c, true
}

// idSign is the HMAC of a session id's payload, cut to idMAC bytes.
func idSign(key, payload []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(payload)
	return m.Sum(nil)[:idMAC]
}
