package history

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"engram/backend/memory"
)

// TestTwoWritersOnOneHomeCommitInTurn opens the same home twice, as the app and the CLI do
// (each open holds its own file lock, which excludes the other like another process's), and
// writes from both at once: every batch must be its own commit on one unbroken line.
func TestTwoWritersOnOneHomeCommitInTurn(t *testing.T) {
	home := t.TempDir()
	a, ra := openHome(t, home, true)
	b, _ := openHome(t, home, false) // the same repository, already enabled by a
	const each = 15
	var wg sync.WaitGroup
	for w, st := range []*memory.Store{a, b} {
		wg.Add(1)
		go func(w int, st *memory.Store) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				res, err := st.ApplyBatch(context.Background(), memory.Batch{Actor: memory.ActorTool,
					Items: []memory.Item{newMem(fmt.Sprintf("writer%d-note%02d", w, i), fmt.Sprintf("Note %d of writer %d.", i, w))}})
				if err != nil || res.Failed > 0 {
					t.Errorf("writer %d batch %d: %v %+v", w, i, err, res)
					return
				}
			}
		}(w, st)
	}
	wg.Wait()
	got := commits(t, a.Root())
	if len(got) != 1+2*each {
		t.Fatalf("%d commits, want %d: %q", len(got), 1+2*each, got)
	}
	st, err := ra.Status()
	if err != nil || st.Commits != 1+2*each {
		t.Fatalf("status = %+v, %v", st, err)
	}
	// Every memory is in HEAD's tree: no commit was built on a stale parent.
	for w := 0; w < 2; w++ {
		for i := 0; i < each; i++ {
			if _, err := ra.Read(fmt.Sprintf("global/user/writer%d-note%02d.md", w, i), st.Head); err != nil {
				t.Fatalf("writer %d note %d missing from HEAD: %v", w, i, err)
			}
		}
	}
}
