package memory

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// WatchDebounce is how long the watcher waits for a burst of edits to settle; editors write
// a file in several steps (truncate, write, rename) and one reconcile should see the result.
const WatchDebounce = 150 * time.Millisecond

// WatchRetryMax caps the wait between retries of a reconcile that failed.
const WatchRetryMax = 10 * time.Second

// Watch reconciles files changed by hand (or by another Engram process) until ctx ends.
// ready, when not nil, is closed once the watches are in place.
func (s *Store) Watch(ctx context.Context, ready chan<- struct{}) error {
	if s.readOnly { // nothing can change the index of a read-only home
		if ready != nil {
			close(ready)
		}
		<-ctx.Done()
		return nil
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("memory: unable to start watcher: %w", err)
	}
	defer w.Close()
	s.live.Store(&ctx)
	defer s.live.Store(nil)
	// blind is set once a folder could not be watched: changes there would go unseen, so this
	// process must not answer for the index's freshness (see fresh.go).
	blind := false
	addTree := func(dir string) {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return nil
			}
			if p != s.root && strings.HasPrefix(d.Name(), ".") && !(d.Name() == ".archive" && filepath.Dir(p) == s.root) {
				return filepath.SkipDir
			}
			if err := w.Add(p); err != nil {
				blind = true
				s.log.Warn("memory: unable to watch", "dir", p, "err", err)
			}
			return nil
		})
	}
	addTree(s.root)
	s.noteSeq(ctx) // from here on, audit rows we did not write come from another process
	go s.watchOtherProcesses(ctx)
	// Changes made between the reconcile at open and the watches above were seen by neither:
	// the first round is a full reconcile (below, before ready), and this process answers for
	// the index's freshness only after it.
	pending := map[string]bool{}
	kvTouched := map[string]bool{}
	full := true
	retry := WatchDebounce
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	v := s.claimVouch()
	defer func() {
		if v != nil {
			v.close()
		}
	}()
	var asks chan chan bool
	if v != nil {
		asks = v.asks
	}
	elect := time.NewTicker(watchElectTick)
	defer elect.Stop()
	// flush reconciles what the events named; it reports whether the index is now current.
	flush := func() bool {
		s.announceKV(kvTouched)
		s.kvHandEdited(kvTouched)
		kvTouched = map[string]bool{}
		var err error
		if s.reconcileFault != nil {
			err = s.reconcileFault()
		}
		if err != nil {
		} else if full {
			_, err = s.Reconcile(ctx)
		} else if len(pending) > 0 {
			rels := make([]string, 0, len(pending))
			for r := range pending {
				rels = append(rels, r)
			}
			_, err = s.ReconcilePaths(ctx, rels)
		}
		if err != nil && ctx.Err() == nil {
			// The index may be locked by another process (busy past its timeout) or the
			// disk briefly full: keep what is pending and try again, backing off, so the
			// edit is indexed once the obstacle goes.
			s.log.Warn("memory: reconcile after change failed; retrying", "err", err, "in", retry)
			timer.Reset(retry)
			retry = min(retry*2, WatchRetryMax)
			return false
		}
		retry = WatchDebounce
		pending, full = map[string]bool{}, false
		return err == nil
	}
	// The first round runs before ready: a change made after ready is then seen by its own
	// event (a reconcile of that path), as it always was.
	flush()
	if ready != nil {
		close(ready)
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-elect.C:
			// The owner stopped (or was killed): a watcher still running takes over.
			if v == nil && !blind {
				if v = s.claimVouch(); v != nil {
					asks = v.asks
					full = true // events before this process owned the answer were not flushed for it
					timer.Reset(0)
				}
			}
		case reply := <-asks:
			v.ask(reply)
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			rel, err := filepath.Rel(s.root, ev.Name)
			if err != nil || strings.HasPrefix(rel, "..") {
				continue
			}
			rel = filepath.ToSlash(rel)
			if isWatchFile(rel) {
				// Our own touch came back: everything queued before it is pending now, and
				// reconciling what the events named makes the index current.
				if v != nil && v.inflight && isSyncAnswer(ev, rel, v.syncRel) {
					timer.Stop()
					v.synced(flush() && !blind)
				}
				continue
			}
			base := filepath.Base(rel)
			if strings.HasPrefix(base, ".tmp-") || strings.HasPrefix(base, "index.sqlite3") || base == ".lock" {
				continue
			}
			// Lstat: a link is never watched or followed; the walk reports it.
			if info, err := os.Lstat(ev.Name); err == nil && info.Mode()&os.ModeSymlink != 0 {
				full = true
			} else if err == nil && info.IsDir() {
				if ev.Has(fsnotify.Create) {
					addTree(ev.Name)
					full = true // files may have landed before the watch did
				}
			} else if agent := kvAgentOf(rel); agent != "" {
				// Not a memory: nothing to index, but windows showing the agent's keys (and the
				// problems list, should the edit have broken the file) refresh.
				kvTouched[agent] = true
			} else if strings.HasSuffix(rel, ".md") {
				pending[rel] = true
			} else if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
				full = true // a folder went away: let the walk find what went with it
			}
			timer.Reset(WatchDebounce)
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				full = true
				timer.Reset(WatchDebounce)
				if v != nil && v.inflight {
					v.touch() // the touch's own event may be among those lost
				}
				continue
			}
			s.log.Warn("memory: watcher error", "err", err)
		case <-timer.C:
			flush()
		}
	}
}
