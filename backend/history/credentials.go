package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"engram/backend/memory"

	"github.com/go-git/go-git/v5/plumbing/transport"
)

// CredentialsFile holds the HTTPS user names and passwords (or tokens) of sync remotes, in the
// home beside the memory folder: never in the memory folder, its .git/config, the index,
// settings, logs or exports (a backup of the memory folder does not carry it).
const CredentialsFile = "git.credentials"

// Credentials reads and writes the home's git.credentials (mode 0600, written atomically).
// Entries are filed per remote URL without its user part, so a password given for one remote
// is never sent to another.
type Credentials struct {
	path string
	mu   sync.Mutex
}

// OpenCredentials returns the credentials of home (the file is created on the first Set).
func OpenCredentials(home string) *Credentials {
	return &Credentials{path: filepath.Join(home, CredentialsFile)}
}

type credential struct {
	Username string `json:"username"`
	Password string `json:"password"`
}

type credentialsFormat struct {
	Version int                   `json:"version"`
	Remotes map[string]credential `json:"remotes"`
}

// credentialKey is the name a remote's credential is filed under: the URL without user,
// password, query or fragment, scheme and host in lower case, no trailing slash.
func credentialKey(remote string) string {
	u, err := url.Parse(strings.TrimSpace(remote))
	if err != nil || u.Host == "" {
		return strings.TrimRight(strings.TrimSpace(remote), "/")
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	u.Path = strings.TrimRight(u.Path, "/")
	return u.String()
}

func (c *Credentials) load() (credentialsFormat, error) {
	f := credentialsFormat{Version: 1, Remotes: map[string]credential{}}
	data, err := os.ReadFile(c.path)
	if errors.Is(err, os.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, fmt.Errorf("history: unable to read %s: %w", CredentialsFile, err)
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return f, fmt.Errorf("history: %s is not valid JSON: %w", CredentialsFile, err)
	}
	if f.Remotes == nil {
		f.Remotes = map[string]credential{}
	}
	return f, nil
}

// Get returns the user name and password filed for remote (ok false: none).
func (c *Credentials) Get(remote string) (username, password string, ok bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f, err := c.load()
	if err != nil {
		return "", "", false, err
	}
	cr, ok := f.Remotes[credentialKey(remote)]
	return cr.Username, cr.Password, ok, nil
}

// Set files a user name and password for remote (a token given as the user name has no
// password); both empty removes the entry.
func (c *Credentials) Set(remote, username, password string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	f, err := c.load()
	if err != nil {
		return err
	}
	if username == "" && password == "" {
		delete(f.Remotes, credentialKey(remote))
	} else {
		f.Remotes[credentialKey(remote)] = credential{Username: username, Password: password}
	}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("history: unable to encode credentials: %w", err)
	}
	if err := memory.WriteFileAtomic(c.path, append(data, '\n')); err != nil {
		return fmt.Errorf("history: unable to write %s: %w", CredentialsFile, err)
	}
	if err := os.Chmod(c.path, 0o600); err != nil {
		return fmt.Errorf("history: unable to protect %s: %w", CredentialsFile, err)
	}
	return nil
}

// splitUserinfo returns remote without its secret and the user name and password it carried
// ("https://me:token@host/x.git" → "https://me@host/x.git", "me", "token"); secret says
// there was one. A token given as the user name, as GitHub's documentation shows it
// ("https://ghp_…@github.com/me/x.git"), is a secret too: the URL is kept without it
// ("https://github.com/me/x.git") and it is filed as the user name with no password, which is
// what git sends for it — it used to stay in .git/config and in every message naming the
// remote. A URL without a secret comes back unchanged.
func splitUserinfo(remote string) (clean, username, password string, secret bool) {
	u, err := url.Parse(remote)
	if err != nil || u.User == nil || (u.Scheme != "https" && u.Scheme != "http") {
		return remote, "", "", false
	}
	username = u.User.Username()
	p, has := u.User.Password()
	switch {
	case has:
		u.User = url.User(username)
	case tokenUser(username):
		u.User = nil
		return u.String(), username, "", true
	default:
		return remote, "", "", false
	}
	if username == "" {
		u.User = nil
	}
	return u.String(), username, p, true
}

var tokenChars = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// tokenUser reports whether a URL's user name is a token, not a name: a known token form
// (the store's secret rules) or a long run of token characters.
func tokenUser(name string) bool {
	return name != "" && (memory.RedactSecrets(name) != name || len(name) >= 32 && tokenChars.MatchString(name))
}

// redact hides any password, and a user name that is a token, in a URL (for messages and
// logs).
func redact(remote string) string {
	if clean, ok := dropSSHPassword(remote); ok {
		return clean
	}
	u, err := url.Parse(remote)
	if err != nil || u.User == nil {
		return remote
	}
	if _, has := u.User.Password(); !has && tokenUser(u.User.Username()) {
		u.User = url.User("xxxxx")
		return u.String()
	}
	return u.Redacted()
}

// checkSSHPassword refuses an SSH remote that carries a password (ssh://me:pw@host/…, or
// me:pw@host:path): Engram signs in over SSH with keys only, and only an HTTPS password is
// filed in the credentials file, so such a URL went to .git/config as it was typed, password
// and all, where every later status showed it and a sync pushed nothing. The error names the
// remote without its password.
func checkSSHPassword(ep *transport.Endpoint) error {
	if !strings.Contains(ep.Protocol, "ssh") {
		return nil
	}
	user, _, inUser := strings.Cut(ep.User, ":")
	if ep.Password == "" && !inUser {
		return nil
	}
	shown := *ep
	shown.User, shown.Password = user, ""
	return &Error{Code: CodeSSHPassword, Args: map[string]any{"Remote": shown.String()},
		msg: "history: an SSH remote carries a password: " + shown.String()}
}

// mendRemote takes a secret out of the remote URL in .git/config, where an older build (or a
// backup it made, restored) left it: an HTTPS password or token moves to the credentials file
// as SetRemote files a new one, and an SSH password — never used, since SSH signs in with keys
// only — is dropped, the URL kept otherwise as it was. Called at every process's start
// (Attach) and before each sync, under the writer lock. changed says the config was rewritten.
func (r *Repo) mendRemote() (changed bool, err error) {
	cur := r.Remote()
	if cur == "" {
		return false, nil
	}
	if _, _, _, secret := splitUserinfo(cur); secret {
		return true, r.SetRemote(cur)
	}
	if clean, ok := dropSSHPassword(cur); ok {
		return true, r.writeRemote(clean)
	}
	return false, nil
}

// dropSSHPassword returns an SSH remote without the password it carries
// ("ssh://me:pw@host/x.git" → "ssh://me@host/x.git", "me:pw@host:x.git" → "me@host:x.git");
// ok is false when it carries none or is no SSH remote.
func dropSSHPassword(remote string) (string, bool) {
	ep, err := transport.NewEndpoint(remote)
	if err != nil || checkSSHPassword(ep) == nil {
		return remote, false
	}
	if u, err := url.Parse(remote); err == nil && u.Scheme != "" && u.User != nil {
		u.User = url.User(u.User.Username())
		return u.String(), true
	}
	// The scp-like form (user:password@host:path): git reads the user part up to the first "@".
	at := strings.Index(remote, "@")
	user, _, _ := strings.Cut(remote[:at], ":")
	return user + remote[at:], true
}

// remoteMayHoldSecret is mendRemote's cheap first look, made by every process at start: the
// config read as text, the repository opened only when a remote line names a user.
func (r *Repo) remoteMayHoldSecret() bool {
	data, err := os.ReadFile(filepath.Join(r.gitDir(), "config"))
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok && strings.TrimSpace(k) == "url" && strings.Contains(v, "@") {
			return true
		}
	}
	return false
}
