package memory

import (
	"runtime/debug"
	"sync"
)

// bulkFiles is how many files make a reconcile a bulk build (a cold open, a reindex), which
// gets bulkCacheKiB of page cache instead of SQLite's 2 MB: the rebuilt tables' pages are
// then written to the WAL about once instead of being spilled and read back as it grows.
const (
	bulkFiles    = 1000
	bulkCacheKiB = 64 << 10
)

// bulkGCPercent is the garbage collector's target while a bulk build runs. A build's readers
// parse thousands of files and drop what they made at once, and at Go's default (100) the
// collector ran often enough to take a share of the two cores from the index's one writer:
// at 200 a 100k reindex took 4–5% less time (18.3 against 19.2 s) for ~60 MB more at its peak;
// at 400 it was no faster and held ~180 MB more.
const bulkGCPercent = 200

// bulkGC counts the bulk builds under way in this process. The collector's target is the
// process's, not a store's: it is raised by the first build and put back by the last.
var bulkGC struct {
	sync.Mutex
	n   int
	was int
}

// raiseGCForBulk raises the collector's target for a bulk build and returns what puts it
// back. A target set higher (or off) through GOGC is left as it is.
func raiseGCForBulk() (restore func()) {
	bulkGC.Lock()
	defer bulkGC.Unlock()
	if bulkGC.n == 0 {
		bulkGC.was = debug.SetGCPercent(bulkGCPercent)
		if bulkGC.was < 0 || bulkGC.was >= bulkGCPercent {
			debug.SetGCPercent(bulkGC.was)
		}
	}
	bulkGC.n++
	var once sync.Once
	return func() {
		once.Do(func() {
			bulkGC.Lock()
			defer bulkGC.Unlock()
			if bulkGC.n--; bulkGC.n == 0 {
				debug.SetGCPercent(bulkGC.was)
			}
		})
	}
}
