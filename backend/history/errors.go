package history

import (
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strings"
	"syscall"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/transport"
)

// Error is a history failure with a stable code (translated as "error.<code>" through api).
type Error struct {
	Code string
	Args map[string]any
	msg  string
	err  error
}

func (e *Error) Error() string {
	if e.err != nil {
		return e.msg + ": " + e.err.Error()
	}
	return e.msg
}

// Unwrap exposes the cause (a transport error) to errors.Is.
func (e *Error) Unwrap() error { return e.err }

// ErrorCode and ErrorArgs make Error a coded.Error.
func (e *Error) ErrorCode() string         { return e.Code }
func (e *Error) ErrorArgs() map[string]any { return e.Args }

// Codes of history failures.
const (
	CodeOff          = "history_off"
	CodeNoRemote     = "history_no_remote"
	CodeNoVersion    = "history_no_version"
	CodeRemoteFailed = "history_remote_failed"
	CodeRemoteMoved  = "history_remote_moved"
	// CodeAuthFailed: the remote refused the user name and password, token or SSH key.
	CodeAuthFailed = "history_auth_failed"
	// CodeUnreachable: no connection to the remote's host (refused, no such host, timeout).
	CodeUnreachable = "history_remote_unreachable"
	// CodeTLSUntrusted: the HTTPS remote's certificate is not trusted (unknown authority or
	// another name); TLS is never turned off, a private CA goes in git-ca.pem.
	CodeTLSUntrusted = "history_tls_untrusted"
	// CodeHostUnknown: the SSH host's key is not in known_hosts.
	CodeHostUnknown = "history_host_unknown"
	// CodeHostKeyChanged: the SSH host's key differs from the one in known_hosts.
	CodeHostKeyChanged = "history_host_key_changed"
	// CodeSSHNoKey: no SSH key to offer (agent empty or absent, no unencrypted key file).
	CodeSSHNoKey = "history_ssh_no_key"
	// CodeCredentialsInURL: a password in a remote URL where no credentials file can keep it.
	CodeCredentialsInURL = "history_credentials_in_url"
	// CodeSSHPassword: an SSH remote URL carrying a password (SSH signs in with keys only).
	CodeSSHPassword = "history_ssh_password"
	// CodeBranchDamaged: the branch's file names no commit (ErrBranchDamaged).
	CodeBranchDamaged = "history_branch_damaged"
	// CodeRemoteLocked: a local remote's branch lock is held (by a live process, or left by
	// a git process killed less than lockGrace ago).
	CodeRemoteLocked = "history_remote_locked"
	// CodeRemoteInvalid: a remote that is no git endpoint (control characters, a relative
	// path, a URL go-git cannot parse).
	CodeRemoteInvalid = "history_remote_invalid"
	// CodeRemoteNotRepo: the remote names a folder or address that holds no git repository.
	CodeRemoteNotRepo = "history_remote_not_repo"
	// CodeReplaced: the repository was replaced while a sync ran (a restore in place).
	CodeReplaced = "history_replaced"
	// CodeRemoteForeign: the remote's history shares no commit with this one and holds files
	// no memory folder has (a code repository, a vault): not merged, nothing sent.
	CodeRemoteForeign = "history_remote_foreign"
)

var (
	// ErrOff is returned when history is asked for while it is not enabled.
	ErrOff = &Error{Code: CodeOff, msg: "history: git history is not enabled"}
	// ErrNoRemote is returned by a sync with no remote configured or given.
	ErrNoRemote = &Error{Code: CodeNoRemote, msg: "history: no sync remote is configured"}
	// ErrNoVersion is returned when the commit holds no version of the file.
	ErrNoVersion = &Error{Code: CodeNoVersion, msg: "history: that commit holds no version of this memory"}
	// errRemoteMoved is a push refused because the remote's branch moved since the fetch
	// (Sync tries once more before reporting it).
	errHistoryReplaced = &Error{Code: CodeReplaced, msg: "history: the repository was replaced during the sync; sync again"}
	errRemoteMoved     = &Error{Code: CodeRemoteMoved, msg: "history: the remote changed during the sync; sync again"}
)

// remoteFailed wraps a fetch or push failure, naming the remote (its password, if any,
// redacted) with a code saying what went wrong when it is known: the host key, the
// credentials, the certificate, the connection; history_remote_failed otherwise.
func remoteFailed(step, remote string, err error) error {
	remote = redact(remote)
	args := map[string]any{"Remote": remote, "Step": step, "Detail": err.Error()}
	var he *Error
	if errors.As(err, &he) && he.Code != CodeRemoteFailed {
		for k, v := range he.Args {
			args[k] = v
		}
		return &Error{Code: he.Code, Args: args, msg: fmt.Sprintf("history: unable to %s %s: %s", step, remote, he.msg), err: err}
	}
	code, what := CodeRemoteFailed, "unable to "+step
	switch {
	case errors.Is(err, transport.ErrAuthenticationRequired), errors.Is(err, transport.ErrAuthorizationFailed),
		strings.Contains(err.Error(), "unable to authenticate"):
		code, what = CodeAuthFailed, "authentication refused by"
	case tlsUntrusted(err):
		code, what = CodeTLSUntrusted, "untrusted certificate of"
	case unreachable(err):
		code, what = CodeUnreachable, "unable to reach"
	case errors.Is(err, git.ErrRepositoryNotExists), errors.Is(err, transport.ErrRepositoryNotFound):
		code, what = CodeRemoteNotRepo, "no repository at"
	}
	return &Error{Code: code, Args: args, msg: fmt.Sprintf("history: %s %s (git %s)", what, remote, step), err: err}
}

func tlsUntrusted(err error) bool {
	var ua x509.UnknownAuthorityError
	var hn x509.HostnameError
	var ci x509.CertificateInvalidError
	if errors.As(err, &ua) || errors.As(err, &hn) || errors.As(err, &ci) {
		return true
	}
	// go-git flattens some transport errors to text.
	return strings.Contains(err.Error(), "x509: ") || strings.Contains(err.Error(), "tls: failed to verify")
}

func unreachable(err error) bool {
	var dns *net.DNSError
	var op *net.OpError
	if errors.As(err, &dns) || errors.As(err, &op) || errors.Is(err, syscall.ECONNREFUSED) {
		return true
	}
	msg := err.Error()
	for _, s := range []string{"connection refused", "no such host", "i/o timeout", "network is unreachable", "no route to host"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
