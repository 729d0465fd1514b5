package memory

import (
	"runtime/debug"
	"sync"
	"testing"
)

// The collector's target is raised while any bulk build runs and put back by the last one to
// end, whatever the order; a target set higher (or off) is never lowered.
func TestRaiseGCForBulk(t *testing.T) {
	was := debug.SetGCPercent(100)
	defer debug.SetGCPercent(was)
	current := func() int {
		p := debug.SetGCPercent(0)
		debug.SetGCPercent(p)
		return p
	}
	first := raiseGCForBulk()
	if got := current(); got != bulkGCPercent {
		t.Fatalf("during a build the target is %d, want %d", got, bulkGCPercent)
	}
	second := raiseGCForBulk()
	first()
	first() // twice is once
	if got := current(); got != bulkGCPercent {
		t.Fatalf("with a second build still running the target is %d, want %d", got, bulkGCPercent)
	}
	second()
	if got := current(); got != 100 {
		t.Fatalf("after both builds the target is %d, want 100", got)
	}
	for _, set := range []int{-1, 400} {
		debug.SetGCPercent(set)
		restore := raiseGCForBulk()
		if got := current(); got != set {
			t.Fatalf("GOGC %d became %d during a build", set, got)
		}
		restore()
		if got := current(); got != set {
			t.Fatalf("GOGC %d became %d after a build", set, got)
		}
	}
	debug.SetGCPercent(100)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			raiseGCForBulk()()
		}()
	}
	wg.Wait()
	if got := current(); got != 100 {
		t.Fatalf("after eight concurrent builds the target is %d, want 100", got)
	}
}
