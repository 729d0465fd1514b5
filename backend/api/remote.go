package api

import (
	"strings"
	"time"

	"engram/backend/memory"
)

// Codes of calls only the person at this machine may make (the desktop window or the CLI),
// never a browser over the bridge nor an agent over MCP.
const (
	CodeRegenerateDesktopOnly = "remote_regenerate_desktop_only"
	CodeKeepReviewDesktopOnly = "import_keep_review_desktop_only"
	// CodeExportFolderRemote refuses a Markdown folder export from a remote caller: a browser
	// over the bridge may not write files at a path of its choosing.
	CodeExportFolderRemote = "export_folder_remote"
)

// personCaller is true for the api the desktop window and the CLI use; the bridge's and
// MCP's apis act as "bridge" and "tool".
func (a *API) personCaller() bool { return a.actor == memory.ActorUser }

// RemoteClient is one browser connected through the bridge.
type RemoteClient struct {
	ID          int64     `json:"id"`
	RemoteAddr  string    `json:"remote_addr"`
	UserAgent   string    `json:"user_agent"`
	ConnectedAt time.Time `json:"connected_at"`
	Requests    int64     `json:"requests"`
}

// RemoteStatus is the state of remote access (the localhost bridge).
type RemoteStatus struct {
	Enabled bool `json:"enabled"`
	// ServeMode is true under `engram serve`, where the bridge is the whole app and the
	// Remote access switch does not apply.
	ServeMode bool   `json:"serve_mode"`
	Running   bool   `json:"running"`
	Addr      string `json:"addr"`
	URL       string `json:"url"`
	// Token (and the token in URL) is only told to the desktop window and the CLI.
	Token   string         `json:"token,omitempty"`
	Clients []RemoteClient `json:"clients"`
	// Error is why the bridge is not running although enabled (port in use…), translated.
	Error *Error `json:"error,omitempty"`
}

// Remote is implemented by whoever runs the bridge (the app); api only reports and asks.
type Remote interface {
	RemoteStatus() RemoteStatus
	RegenerateToken() error
}

// RemoteService shows and manages remote access.
type RemoteService struct{ a *API }

// Status returns whether the bridge runs, its URL and token, and the connected clients. A
// remote caller already holds a token; it is never handed another copy (a page that
// leaks its status, or a token meant to be revoked, must not spread the current one).
func (s *RemoteService) Status(_ Empty) (RemoteStatus, error) {
	if err := s.a.Wait(); err != nil {
		return RemoteStatus{}, err
	}
	if s.a.deps.Remote == nil {
		return RemoteStatus{Clients: []RemoteClient{}}, nil
	}
	st := s.a.deps.Remote.RemoteStatus()
	if st.Clients == nil {
		st.Clients = []RemoteClient{}
	}
	if !s.a.personCaller() {
		st.Token = ""
		if i := strings.IndexByte(st.URL, '#'); i >= 0 {
			st.URL = st.URL[:i]
		}
	}
	return st, nil
}

// RegenerateToken replaces the access token; browsers must use the new URL. Only the person
// at this machine may: a remote client would lock everyone else out and learn the new token.
func (s *RemoteService) RegenerateToken(_ Empty) (RemoteStatus, error) {
	if err := s.a.Wait(); err != nil {
		return RemoteStatus{}, err
	}
	if !s.a.personCaller() {
		return RemoteStatus{}, s.a.newError(CodeRegenerateDesktopOnly, nil)
	}
	if s.a.deps.Remote == nil {
		return RemoteStatus{}, s.a.newError(CodeRemoteUnavailable, nil)
	}
	if err := s.a.deps.Remote.RegenerateToken(); err != nil {
		return RemoteStatus{}, s.a.fail(err)
	}
	return s.Status(Empty{})
}
