package history

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"

	"engram/backend/memory"
)

// The schedule reads its interval each round: 0 syncs nothing until wake says the setting
// changed, after which the new interval applies at once (no restart), and each round pushes.
func TestScheduleFollowsTheIntervalSetting(t *testing.T) {
	bare := filepath.Join(t.TempDir(), "remote.git")
	if _, err := git.PlainInit(bare, true); err != nil {
		t.Fatal(err)
	}
	st, r := openHome(t, t.TempDir(), true)
	write(t, st, memory.ActorUser, newMem("tea-pref", "Likes green tea."))
	if err := r.SetRemote(bare); err != nil {
		t.Fatal(err)
	}
	var every atomic.Int64 // 0: only on demand
	wake := make(chan struct{}, 1)
	results := make(chan SyncResult, 8)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		r.Schedule(ctx, st, func() time.Duration { return time.Duration(every.Load()) }, wake, func(res SyncResult, err error) {
			if err != nil {
				t.Errorf("scheduled sync: %v", err)
			}
			select {
			case results <- res:
			default:
			}
		})
		close(done)
	}()
	// Nothing is pushed while the schedule is off: the remote stays empty for a few rounds
	// of the loop (a wake with the same value re-arms and waits again).
	wake <- struct{}{}
	bareRepo, err := git.PlainOpen(bare)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bareRepo.Head(); err == nil {
		t.Fatal("pushed while the schedule was off")
	}
	every.Store(int64(time.Millisecond))
	wake <- struct{}{}
	res := <-results
	if !res.Pushed || res.Head == "" {
		t.Fatalf("scheduled sync = %+v", res)
	}
	if ref, err := bareRepo.Reference("refs/heads/main", true); err != nil || ref.Hash().String() != res.Head {
		t.Fatalf("remote main = %v, %v; want %s", ref, err, res.Head)
	}
	cancel()
	<-done
}
