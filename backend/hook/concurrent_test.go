package hook

import (
	"context"
	"sync"
	"testing"

	"engram/backend/memory"
)

// TestTwoHookRunsOfOneSessionAtOnce: the agent ran its Stop hook twice for one turn, and the
// two processes (each its own open of the home) read the same new entries at once. The claim
// is one transaction per run, so whichever way they interleave, one run hands the turn over
// whole and the other finds nothing new — neither fails, and no entry goes twice or is lost.
// (Runs of the same session that carry different turns may still plan at once in two
// processes; extraction settles those: TestConcurrentRunsOfOneSession.)
func TestTwoHookRunsOfOneSessionAtOnce(t *testing.T) {
	for range 3 {
		f := newFixture(t)
		rec := newRecorder(t)
		rec.publish(t, f.home)
		f.append(sample(t))
		st2, err := memory.Open(context.Background(), f.home, memory.Options{Logger: quiet})
		if err != nil {
			t.Fatal(err)
		}
		other := New(Options{Store: st2, Home: f.home, Command: f.svc.o.Command, Env: f.svc.o.Env, Logger: quiet})
		start := make(chan struct{})
		var wg sync.WaitGroup
		results := make([]Result, 2)
		errs := make([]error, 2)
		for j, svc := range []*Service{f.svc, other} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				results[j], errs[j] = svc.ClaudeCode(context.Background(), f.payload())
			}()
		}
		close(start)
		wg.Wait()
		st2.Close()
		forwarded := 0
		for j := range results {
			if errs[j] != nil {
				t.Fatalf("run %d: %v", j, errs[j])
			}
			switch results[j].Status {
			case StatusForwarded:
				forwarded++
			case StatusNothingNew:
			default:
				t.Fatalf("run %d: %+v", j, results[j])
			}
		}
		calls := rec.got()
		if forwarded != 1 || len(calls) != 1 || len(calls[0].Params.Messages) != 3 {
			t.Fatalf("%d forwarded, calls %+v", forwarded, calls)
		}
	}
}
