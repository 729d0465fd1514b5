package mcp

import "time"

// SetDrainTimeout shortens how long a stdio session waits, after its input ended, for its calls
// and the writes of their answers; it returns the previous value.
func SetDrainTimeout(d time.Duration) time.Duration {
	old := drainTimeout
	drainTimeout = d
	return old
}

// SetSessionTimeout shortens how long an HTTP session may sit idle; it returns the previous
// value.
func SetSessionTimeout(d time.Duration) time.Duration {
	old := sessionTimeout
	sessionTimeout = d
	return old
}
