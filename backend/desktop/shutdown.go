package desktop

import (
	"sync"
	"time"
)

// pollerStopWait is how long the window's shutdown waits for its poller to finish.
const pollerStopWait = 2 * time.Second

// waitStopped waits for done up to limit and reports whether it finished. The window's
// poller asks GTK's main loop for the window's size and position; at shutdown (a SIGTERM, a
// display that went away) that loop has already quit, so a question asked just then is never
// answered. Waiting for it without a limit hung the process for good, holding the store's
// lock, deaf to further signals.
func waitStopped(done *sync.WaitGroup, limit time.Duration) bool {
	finished := make(chan struct{})
	go func() {
		done.Wait()
		close(finished)
	}()
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case <-finished:
		return true
	case <-t.C:
		return false
	}
}
