package desktop

import (
	"sync"
	"testing"
	"time"
)

// A poller stuck in a call the quit main loop will never answer must not hold the shutdown:
// waitStopped gives up after its limit; a poller that stops is waited for.
func TestWaitStoppedGivesUpOnAStuckPoller(t *testing.T) {
	var stuck sync.WaitGroup
	stuck.Add(1) // never Done: a window call nobody answers
	if waitStopped(&stuck, 50*time.Millisecond) {
		t.Fatal("waitStopped reported a stuck poller as stopped")
	}

	var quick sync.WaitGroup
	quick.Add(1)
	release := make(chan struct{})
	go func() {
		<-release
		quick.Done()
	}()
	close(release)
	if !waitStopped(&quick, time.Minute) {
		t.Fatal("waitStopped gave up on a poller that stopped")
	}
}
