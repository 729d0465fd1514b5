// Package coded is the one shape of a user-visible failure. Every package's coded error
// (memory, organizer, recall, embed, settings) offers its stable code and the arguments of its
// translated message through Error, and api translates any error by it; the packages satisfy
// the interface by their methods alone. It imports no other backend package, so anything may use it.
package coded

import (
	"archive/tar"
	"compress/flate"
	"compress/gzip"
	"crypto/x509"
	"errors"
	"io"
	"io/fs"
	"net"
	"syscall"
)

// Error is a failure with a stable code (translated as "error.<code>") and the arguments that
// fill the translated message's placeholders.
type Error interface {
	error
	ErrorCode() string
	ErrorArgs() map[string]any
}

// As returns the outermost coded error in err's chain.
func As(err error) (Error, bool) {
	var c Error
	if errors.As(err, &c) {
		return c, true
	}
	return nil, false
}

// Reason adds to args what says why err happened: Detail, its text, and — for the
// file-system failures people meet (no such file, permission denied, disk full, read-only,
// a folder where a file was wanted, or the reverse) — DetailKey, the catalog key of that
// reason in words (detail.*), which api puts in Detail in the caller's language. The OS's
// own words ("open /x: no such file or directory") are English whatever the language.
func Reason(args map[string]any, err error) map[string]any {
	if args == nil {
		args = map[string]any{}
	}
	if err == nil {
		return args
	}
	args["Detail"] = err.Error()
	if key := reasonKey(err); key != "" {
		args["DetailKey"] = key
	}
	return args
}

// NetReasonKey is the catalog key (detail.*) of why a connection failed, for the failures
// people meet setting up a model or embeddings server (nothing listening, a host name that
// does not resolve, no answer, an untrusted certificate); "" for any other. The transport's
// own words (`Post "http://…": dial tcp …: connect: connection refused`) are Go's English.
func NetReasonKey(err error) string {
	var dns *net.DNSError
	var ne net.Error
	var ua x509.UnknownAuthorityError
	var hn x509.HostnameError
	var ci x509.CertificateInvalidError
	switch {
	case err == nil:
		return ""
	case errors.Is(err, syscall.ECONNREFUSED):
		return "detail.net_refused"
	case errors.As(err, &dns):
		return "detail.net_no_host"
	case errors.As(err, &ua), errors.As(err, &hn), errors.As(err, &ci):
		return "detail.net_tls_untrusted"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "detail.net_unreachable"
	case errors.Is(err, syscall.ECONNRESET):
		return "detail.net_reset"
	case errors.As(err, &ne) && ne.Timeout():
		return "detail.net_timeout"
	}
	return ""
}

func reasonKey(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "detail.no_such_path"
	case errors.Is(err, fs.ErrPermission):
		return "detail.permission_denied"
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return "detail.disk_full"
	case errors.Is(err, syscall.EROFS):
		return "detail.read_only_fs"
	case errors.Is(err, syscall.EISDIR):
		return "detail.is_a_folder"
	case errors.Is(err, syscall.ENOTDIR):
		return "detail.not_a_folder"
	// A damaged archive (a backup cut off by an interrupted copy, or not one at all) read
	// "unexpected EOF" or "gzip: invalid header" in every language.
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "detail.cut_short"
	case errors.Is(err, gzip.ErrHeader):
		return "detail.not_gzip"
	case errors.Is(err, gzip.ErrChecksum), errors.Is(err, tar.ErrHeader), errors.As(err, new(flate.CorruptInputError)):
		return "detail.corrupt_archive"
	}
	return ""
}
