package coded

import (
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"testing"
	"time"
)

// A connection's failure is said by a catalog key, from the error a real dial or request
// returns: the transport's own text is Go's English whatever the person's language.
func TestNetReasonKey(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	_, refused := http.Get("http://" + closed + "/v1")

	silent, err := net.Listen("tcp", "127.0.0.1:0") // accepts, never answers
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	_, timeout := (&http.Client{Timeout: 200 * time.Millisecond}).Get("http://" + silent.Addr().String() + "/")

	cases := []struct {
		name string
		err  error
		want string
	}{
		{"connection refused", refused, "detail.net_refused"},
		{"no such host", fmt.Errorf("post: %w", &net.DNSError{Err: "no such host", Name: "nohost.lan", IsNotFound: true}), "detail.net_no_host"},
		{"no answer in time", timeout, "detail.net_timeout"},
		{"untrusted certificate", fmt.Errorf("tls: %w", x509.UnknownAuthorityError{}), "detail.net_tls_untrusted"},
		{"anything else", fmt.Errorf("odd"), ""},
		{"nil", nil, ""},
	}
	for _, c := range cases {
		if got := NetReasonKey(c.err); got != c.want {
			t.Errorf("%s (%v): %q, want %q", c.name, c.err, got, c.want)
		}
	}
}
