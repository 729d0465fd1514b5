package api

import "time"

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
	ServeMode bool           `json:"serve_mode"`
	Running   bool           `json:"running"`
	Addr      string         `json:"addr"`
	URL       string         `json:"url"`
	Token     string         `json:"token"`
	Clients   []RemoteClient `json:"clients"`
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

// Status returns whether the bridge runs, its URL and token, and the connected clients.
func (s *RemoteService) Status(_ Empty) (RemoteStatus, error) {
	if s.a.deps.Remote == nil {
		return RemoteStatus{Clients: []RemoteClient{}}, nil
	}
	st := s.a.deps.Remote.RemoteStatus()
	if st.Clients == nil {
		st.Clients = []RemoteClient{}
	}
	return st, nil
}

// RegenerateToken replaces the access token; browsers must use the new URL.
func (s *RemoteService) RegenerateToken(_ Empty) (RemoteStatus, error) {
	if s.a.deps.Remote == nil {
		return RemoteStatus{}, s.a.newError(CodeRemoteUnavailable, nil)
	}
	if err := s.a.deps.Remote.RegenerateToken(); err != nil {
		return RemoteStatus{}, s.a.fail(err)
	}
	return s.Status(Empty{})
}
