package history

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/transport"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	gitssh "github.com/go-git/go-git/v5/plumbing/transport/ssh"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
	xknownhosts "golang.org/x/crypto/ssh/knownhosts"
)

// Auth is how a sync proves who it is to an SSH or HTTPS remote and checks who the remote is.
// Nothing in it is written to the memory folder or logged.
//
//   - HTTPS: the user name and password (or token) filed for the remote in Credentials; the
//     system's certificate authorities plus those in CAFile, when it exists. TLS is always
//     verified.
//   - SSH: the keys of the SSH agent (SSH_AUTH_SOCK) when Agent, then the unencrypted private
//     keys in KeyFiles; the host key must be in KnownHosts — an unknown or changed host key is
//     refused with its fingerprint, never accepted silently.
type Auth struct {
	Credentials *Credentials
	CAFile      string
	Agent       bool
	KeyFiles    []string
	KnownHosts  []string
}

// CAFileName is the PEM file of extra certificate authorities trusted for HTTPS remotes, in the
// home (for a remote behind a private CA).
const CAFileName = "git-ca.pem"

// DefaultAuth is the auth of a home: its git.credentials and git-ca.pem, the SSH agent, and
// the user's ~/.ssh keys and known_hosts (SSH_KNOWN_HOSTS, when set, names the files instead).
func DefaultAuth(home string) Auth {
	a := Auth{Credentials: OpenCredentials(home), CAFile: filepath.Join(home, CAFileName), Agent: true}
	if files := filepath.SplitList(os.Getenv("SSH_KNOWN_HOSTS")); len(files) > 0 {
		a.KnownHosts = files
	}
	if dir, err := os.UserHomeDir(); err == nil {
		ssh := filepath.Join(dir, ".ssh")
		if a.KnownHosts == nil {
			a.KnownHosts = []string{filepath.Join(ssh, "known_hosts"), "/etc/ssh/ssh_known_hosts"}
		}
		a.KeyFiles = []string{filepath.Join(ssh, "id_ed25519"), filepath.Join(ssh, "id_ecdsa"), filepath.Join(ssh, "id_rsa")}
	}
	return a
}

// SetAuth sets how syncs authenticate (the wiring passes DefaultAuth of the home; tests their
// own keys, known_hosts and CA).
func (r *Repo) SetAuth(a Auth) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.auth = &a
}

func (r *Repo) authConfig() *Auth {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.auth
}

// remoteOptions returns what a fetch or push to remote needs: the auth method and the extra
// CA bundle (local paths need neither), and done, which the caller calls when the transfer is
// over (it closes the SSH agent's socket).
func (r *Repo) remoteOptions(remote string) (auth transport.AuthMethod, ca []byte, done func(), err error) {
	done = func() {}
	a := r.authConfig()
	if a == nil {
		return nil, nil, done, nil
	}
	ep, err := transport.NewEndpoint(remote)
	if err != nil {
		return nil, nil, done, err
	}
	switch ep.Protocol {
	case "https", "http":
		if a.CAFile != "" {
			if ca, err = os.ReadFile(a.CAFile); err != nil && !errors.Is(err, os.ErrNotExist) {
				return nil, nil, done, fmt.Errorf("history: unable to read %s: %w", a.CAFile, err)
			}
		}
		if a.Credentials == nil {
			return nil, ca, done, nil
		}
		user, pass, ok, err := a.Credentials.Get(remote)
		if err != nil || !ok {
			return nil, ca, done, err
		}
		return &githttp.BasicAuth{Username: user, Password: pass}, ca, done, nil
	case "ssh":
		auth, closeAgent, err := a.sshAuth(ep)
		return auth, nil, closeAgent, err
	}
	return nil, nil, done, nil
}

// sshAuth offers the agent's keys and the key files, and checks the host key against
// known_hosts.
func (a *Auth) sshAuth(ep *transport.Endpoint) (transport.AuthMethod, func(), error) {
	var signers []ssh.Signer
	done := func() {}
	if sock := os.Getenv("SSH_AUTH_SOCK"); a.Agent && sock != "" {
		if conn, err := net.Dial("unix", sock); err == nil {
			// The connection stays open for the signatures made during the handshake.
			done = func() { conn.Close() }
			if s, err := agent.NewClient(conn).Signers(); err == nil {
				signers = append(signers, s...)
			}
		}
	}
	for _, f := range a.KeyFiles {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if s, err := ssh.ParsePrivateKey(data); err == nil {
			signers = append(signers, s)
		}
	}
	if len(signers) == 0 {
		done()
		return nil, func() {}, &Error{Code: CodeSSHNoKey, msg: "history: no SSH key to offer (none in the SSH agent, none unencrypted in ~/.ssh)"}
	}
	host := ep.Host
	port := ep.Port
	if port == 0 {
		port = 22
	}
	hostPort := net.JoinHostPort(host, fmt.Sprint(port))
	check, algos := knownHostsCheck(a.KnownHosts, hostPort)
	user := ep.User
	if user == "" {
		user = "git"
	}
	return &gitssh.PublicKeysCallback{User: user,
		Callback:              func() ([]ssh.Signer, error) { return signers, nil },
		HostKeyCallbackHelper: gitssh.HostKeyCallbackHelper{HostKeyCallback: check, HostKeyAlgorithms: algos}}, done, nil
}

// knownHostsCheck verifies a host key against the known_hosts files that exist; with none,
// every host is unknown. The error names the host and the key's fingerprint.
func knownHostsCheck(files []string, hostPort string) (ssh.HostKeyCallback, []string) {
	var existing []string
	for _, f := range files {
		if _, err := os.Stat(f); err == nil {
			existing = append(existing, f)
		}
	}
	var inner ssh.HostKeyCallback
	var algos []string
	if len(existing) > 0 {
		if db, err := gitssh.NewKnownHostsDb(existing...); err == nil {
			inner = db.HostKeyCallback()
			algos = db.HostKeyAlgorithms(hostPort)
		} else {
			inner = func(string, net.Addr, ssh.PublicKey) error { return err }
		}
	}
	return func(hostname string, remote net.Addr, key ssh.PublicKey) error {
		var err error
		if inner == nil {
			err = &xknownhosts.KeyError{}
		} else {
			err = inner(hostname, remote, key)
		}
		if err == nil {
			return nil
		}
		var ke *xknownhosts.KeyError
		fp := ssh.FingerprintSHA256(key)
		host := strings.TrimSuffix(hostname, ":22")
		if errors.As(err, &ke) && len(ke.Want) > 0 {
			return &Error{Code: CodeHostKeyChanged, Args: map[string]any{"Host": host, "Fingerprint": fp},
				msg: fmt.Sprintf("history: the SSH host key of %s changed (now %s)", host, fp), err: err}
		}
		if errors.As(err, &ke) {
			return &Error{Code: CodeHostUnknown, Args: map[string]any{"Host": host, "Fingerprint": fp, "KeyType": key.Type()},
				msg: fmt.Sprintf("history: the SSH host %s is not in known_hosts (its key is %s)", host, fp), err: err}
		}
		return err
	}, algos
}
