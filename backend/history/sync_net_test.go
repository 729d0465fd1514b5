package history

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"

	"engram/backend/memory"
)

// A remote that accepts the connection and never answers holds its sync, not the store: the
// fetch and the push run outside the writer lock, so an agent's write completes while the
// sync waits, and the sync ends with an error once it is cancelled. Before, both ran under
// the lock and every write waited for the remote until the process ended.
func TestStalledRemoteDoesNotHoldWrites(t *testing.T) {
	arrived := make(chan struct{}, 8)
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case arrived <- struct{}{}:
		default:
		}
		select { // never answers
		case <-stop:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(stop)
	st, r := openHome(t, t.TempDir(), true)
	write(t, st, memory.ActorUser, newMem("tea", "Drinks green tea."))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	synced := make(chan error, 1)
	go func() {
		_, err := r.Sync(ctx, st, srv.URL+"/memories.git")
		synced <- err
	}()
	select {
	case <-arrived: // the sync is in its fetch, waiting for the remote
	case err := <-synced:
		t.Fatalf("the sync ended before the remote answered: %v", err)
	case <-time.After(time.Minute):
		t.Fatal("the sync never reached the remote")
	}
	type written struct {
		res memory.BatchResult
		err error
	}
	wrote := make(chan written, 1)
	go func() {
		res, err := st.ApplyBatch(context.Background(), memory.Batch{Actor: memory.ActorTool,
			Items: []memory.Item{newMem("coffee", "No coffee after noon.")}})
		wrote <- written{res, err}
	}()
	select {
	case w := <-wrote:
		if w.err != nil || !w.res.Results[0].OK {
			t.Fatalf("write during the sync: %+v %v", w.res, w.err)
		}
	case <-time.After(time.Minute):
		t.Fatal("a write waited for the stalled remote")
	}
	select {
	case err := <-synced:
		t.Fatalf("the sync ended while the remote was silent: %v", err)
	default:
	}
	cancel()
	select {
	case err := <-synced:
		if err == nil {
			t.Fatal("a cancelled sync reported success")
		}
	case <-time.After(time.Minute):
		t.Fatal("the sync did not end once cancelled")
	}
	if got := commits(t, st.Root()); len(got) < 2 {
		t.Fatalf("commits %q: the write during the sync was not committed", got)
	}
}

// A restore in place swaps the memory folder's .git while a sync's fetch runs outside the
// writer lock. The fetch never makes a .git again around what it writes (it made one holding
// only its pack and the remote's branch, which no later enable could open), and what it
// fetched into the old repository is not merged into the new one.
func TestSyncAcrossARestoredRepository(t *testing.T) {
	ctx := context.Background()
	for _, stage := range []string{"fetching", "fetched"} {
		t.Run(stage, func(t *testing.T) {
			remote := filepath.Join(t.TempDir(), "remote.git")
			if _, err := git.PlainInit(remote, true); err != nil {
				t.Fatal(err)
			}
			// Another machine's commit on the remote, so the fetch has something to write.
			other, ro := openHome(t, t.TempDir(), true)
			write(t, other, memory.ActorUser, newMem("from-elsewhere", "Written on the other machine."))
			if _, err := ro.Sync(ctx, other, remote); err != nil {
				t.Fatal(err)
			}
			st, r := openHome(t, t.TempDir(), true)
			write(t, st, memory.ActorUser, newMem("tea", "Drinks green tea."))
			t.Cleanup(func() { syncStageHook = nil })
			syncStageHook = func(at, gitDir string) {
				if at != stage {
					return
				}
				if err := os.Rename(gitDir, gitDir+"-before-restore"); err != nil {
					t.Error(err)
				}
				if stage == "fetched" { // the restored backup had history on: a new repository
					if _, err := git.PlainInit(filepath.Dir(gitDir), false); err != nil {
						t.Error(err)
					}
				}
			}
			_, err := r.Sync(ctx, st, remote)
			syncStageHook = nil
			if err == nil {
				t.Fatal("a sync across a replaced repository succeeded")
			}
			if stage == "fetching" {
				if _, serr := os.Stat(r.gitDir()); !os.IsNotExist(serr) {
					t.Fatalf("the fetch made a .git again: %v", serr)
				}
				return
			}
			var he *Error
			if !errors.As(err, &he) || he.Code != CodeReplaced {
				t.Fatalf("sync = %v, want %s", err, CodeReplaced)
			}
			if _, serr := os.Stat(filepath.Join(st.Root(), "global", "user", "from-elsewhere.md")); !os.IsNotExist(serr) {
				t.Fatalf("what was fetched into the old repository was merged into the new: %v", serr)
			}
		})
	}
}

// The shared repository handle is opened again when the pack files change, told by their names:
// a pack renamed in within the timestamp tick of an open (a sync's fetch beside a commit)
// left the pack folder's modification time as the handle had seen it, and every read of the
// pack's objects failed until another pack came.
func TestSharedHandleSeesAPackOfTheSameTick(t *testing.T) {
	other, ro := openHome(t, t.TempDir(), true)
	write(t, other, memory.ActorUser, newMem("from-elsewhere", "Written on the other machine."))
	otherRepo, err := ro.open()
	if err != nil {
		t.Fatal(err)
	}
	h, err := ro.head(otherRepo)
	if err != nil || h == nil {
		t.Fatalf("other head: %v %v", h, err)
	}
	_, r := openHome(t, t.TempDir(), true)
	if _, err := r.open(); err != nil { // the shared handle, cached
		t.Fatal(err)
	}
	packDir := filepath.Join(r.gitDir(), "objects", "pack")
	info, err := os.Stat(packDir)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := r.openFresh()
	if err != nil {
		t.Fatal(err)
	}
	if err := copyCommit(otherRepo.Storer, fresh.Storer, h.Hash); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(packDir, info.ModTime(), info.ModTime()); err != nil { // the same tick
		t.Fatal(err)
	}
	repo, err := r.open()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := repo.CommitObject(h.Hash); err != nil {
		t.Fatalf("the shared handle does not see the new pack: %v", err)
	}
}
