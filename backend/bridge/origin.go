package bridge

import (
	"net"
	"net/url"
	"strconv"
	"strings"
)

// hostAllowed reports whether a request's Host names this bridge: one of its names on its
// port, or (under --allow-remote) any IP literal on its port.
func (s *Server) hostAllowed(host string) bool {
	if s.namedHost(host) {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// With --allow-remote on a wildcard address, accept IP literals on our port: a
	// rebinding attack needs a domain name, never an IP literal.
	if s.cfg.AllowRemote {
		h, p, err := net.SplitHostPort(host)
		if err == nil && p == strconv.Itoa(s.port) && net.ParseIP(strings.Trim(h, "[]")) != nil {
			return true
		}
	}
	return false
}

// namedHost reports whether host:port is one of the names this bridge listens under
// (127.0.0.1, localhost, [::1] and the address asked for, on its port).
func (s *Server) namedHost(host string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hosts[strings.ToLower(host)]
}

// originAllowed accepts no Origin (non-browser clients) or an Origin naming this bridge. A
// browser's Origin is only scheme://host[:port]: one carrying a user part
// ("http://evil@127.0.0.1:port"), a path, a query or a fragment was never sent by a page of
// this bridge, so it is refused rather than read down to the host it happens to contain.
//
// Under --allow-remote, Host takes any IP literal on the port, but an Origin is the page's
// own address: another machine serving a page on the same port number is not this bridge. An
// Origin outside the bridge's names passes only when it is the very host the request was sent
// to (reqHost, already checked by guard): the page came from here.
func (s *Server) originAllowed(origin, reqHost string) bool {
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	if !strings.EqualFold(origin, u.Scheme+"://"+u.Host) {
		return false // userinfo, path, "?", "#" or an opaque form
	}
	return s.namedHost(u.Host) || (strings.EqualFold(u.Host, reqHost) && s.hostAllowed(reqHost))
}
