package api

import (
	"sync"
	"testing"
)

// A burst of progress (a backup reports every file) reaches clients throttled, and its edges
// (the start, a phase change, the end) always arrive, the end last.
func TestIndexProgressThrottlesButKeepsEdges(t *testing.T) {
	hub := NewHub(nil, nil)
	var mu sync.Mutex
	var got []IndexProgress
	hub.Subscribe(func(name string, data any) {
		if name == EventIndexProgress {
			mu.Lock()
			got = append(got, data.(IndexProgress))
			mu.Unlock()
		}
	})
	a := &API{deps: Deps{Events: hub}}
	progress := a.indexProgress("backup")
	const n = 5000
	progress("files", 0, n)
	for i := 1; i <= n; i++ {
		progress("files", i, n)
	}
	// A phase that counts without a total (a restore's verify) is throttled too.
	for i := 1; i <= n; i++ {
		progress("verify", i, 0)
	}
	progress("done", n, n)
	mu.Lock()
	defer mu.Unlock()
	if len(got) >= 2*n/10 {
		t.Fatalf("%d events for %d steps: progress is not throttled", len(got), n)
	}
	if first := got[0]; first.Phase != "files" || first.Done != 0 {
		t.Errorf("first event %+v, want the start of files", first)
	}
	sawFilesEnd := false
	for _, p := range got {
		if p.Phase == "files" && p.Done == n {
			sawFilesEnd = true
		}
	}
	if !sawFilesEnd {
		t.Errorf("the last step of files never went out: %+v", got)
	}
	if last := got[len(got)-1]; last.Phase != "done" {
		t.Errorf("last event %+v, want done", last)
	}
}
