package memory

import (
	"bufio"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// A process that watches the home (the desktop app, engram serve, engram mcp) answers for the
// index's freshness, so a one-shot CLI call can skip the scan of every file. One watcher at a
// time owns the answer (an exclusive lock on .watch.lock, released by the kernel whatever way
// the process ends) and listens on a unix socket, .watch.sock, in the memory folder (0700).
//
// A caller connects and writes "sync". The owner touches its sync file (.watch-sync-<random>,
// made when it claims the answer), a file it watches, and waits until its own watcher delivers
// that touch (an attribute change of that very file): inotify queues events in order, so every
// change made before the caller connected has reached the watcher by then. It reconciles what is
// pending at once (no debounce) and answers "fresh"; the caller's index is current. It answers
// "stale" when it cannot vouch (a folder it failed to watch, a queue overflow not yet caught
// up, a reconcile that failed) and the caller scans as before. No socket, a refused connection
// (the owner was killed: the file stays, nobody listens) or no answer in time: the caller scans.
// The same socket carries read-only api calls a CLI forwards (fresh_calls.go).
const (
	watchLockName  = ".watch.lock"
	watchSockName  = ".watch.sock"
	watchSyncName  = ".watch-sync" // prefix: each owner's sync file adds -<random hex>
	watchSyncAsk   = "sync"
	watchFresh     = "fresh"
	watchStale     = "stale"
	watchStateKey  = "index.watcher"
	watchElectTick = 2 * time.Second
)

// WatchAnswerTimeout bounds how long Open waits for a watcher's answer before scanning itself.
// A watcher in the middle of a full reconcile answers when it is done, which at 100k memories
// takes about as long as the caller's own scan would.
const WatchAnswerTimeout = 3 * time.Second

// isWatchFile reports whether rel is one of the watcher's own files, which it never indexes.
func isWatchFile(rel string) bool {
	return rel == watchLockName || rel == watchSockName || strings.HasPrefix(rel, watchSyncName)
}

// isSyncAnswer reports whether ev is the touch an owner waits for: an attribute change (the
// touch is a Chtimes) of the owner's own sync file. Any other event on a sync file says nothing
// about order: the file's creation at claim can still be queued when the first question comes,
// and answering on it once let a file created after it, but before the question, go unseen
// (TestOpenTrustsALiveWatcher failed 5 of 40 runs under stress-ng --cpu 2). A file of an earlier
// owner is not ours either: its late touches must not answer our questions.
func isSyncAnswer(ev fsnotify.Event, rel, own string) bool {
	return own != "" && rel == own && ev.Op == fsnotify.Chmod
}

// WatcherRecord is the last watcher's own account, kept in the index: set when it started
// answering, and when it stopped cleanly. "watching" with no live owner means it was killed.
type WatcherRecord struct {
	State string    `json:"state"` // watching | stopped
	PID   int       `json:"pid"`
	At    time.Time `json:"at"`
}

// Watcher reads the record the last owning watcher left (State is "" when none ever ran).
func (s *Store) Watcher(ctx context.Context) (WatcherRecord, error) {
	var rec WatcherRecord
	var raw string
	err := s.db.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, watchStateKey).Scan(&raw)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return rec, nil
		}
		return rec, fmt.Errorf("memory: unable to read the watcher record: %w", err)
	}
	_ = json.Unmarshal([]byte(raw), &rec)
	return rec, nil
}

func (s *Store) recordWatcher(state string) {
	b, _ := json.Marshal(WatcherRecord{State: state, PID: os.Getpid(), At: time.Now().UTC()})
	// A fresh context: the stop record is written after the watcher's own context ended.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := s.db.ExecContext(ctx, `INSERT INTO settings(key, value) VALUES(?, ?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value`, watchStateKey, string(b)); err != nil {
		s.log.Warn("memory: unable to record the watcher state", "err", err)
	}
}

// sockAddr is the socket's address; a path too long for sun_path goes through the folder's
// descriptor (/proc/self/fd/N/…), which close releases.
func sockAddr(root string) (addr string, closeFn func(), err error) {
	p := filepath.Join(root, watchSockName)
	if len(p) < 100 {
		return p, func() {}, nil
	}
	d, err := os.Open(root)
	if err != nil {
		return "", nil, err
	}
	return fmt.Sprintf("/proc/self/fd/%d/%s", d.Fd(), watchSockName), func() { d.Close() }, nil
}

// askWatcher asks the owning watcher whether the index is current; false means scan.
func (s *Store) askWatcher(ctx context.Context) bool {
	if _, err := os.Lstat(filepath.Join(s.root, watchSockName)); err != nil {
		return false // the common case with no watcher: one stat, no connect
	}
	addr, done, err := sockAddr(s.root)
	if err != nil {
		return false
	}
	defer done()
	d := net.Dialer{Timeout: 200 * time.Millisecond}
	conn, err := d.DialContext(ctx, "unix", addr)
	if err != nil {
		return false
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(WatchAnswerTimeout))
	if _, err := conn.Write([]byte(watchSyncAsk + "\n")); err != nil {
		return false
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		s.log.Warn("memory: the watching process did not answer; scanning the files", "err", err)
		return false
	}
	return strings.TrimSpace(line) == watchFresh
}

// vouch is the owner side: the listener, the lock, and the requests handed to Watch's loop.
type vouch struct {
	s    *Store
	lock *fileLock
	ln   net.Listener
	asks chan chan bool
	// syncRel is this owner's sync file (relative to the memory folder), touched per question.
	syncRel string
	// pending sync rounds: cur waits on the touch in flight, next on the touch after it.
	inflight  bool
	cur, next []chan bool
}

// claimVouch tries to become the owning watcher; nil when another process owns it (or the
// socket cannot be made: then callers simply scan).
func (s *Store) claimVouch() *vouch {
	lk, err := openLock(filepath.Join(s.root, watchLockName))
	if err != nil {
		return nil
	}
	if ok, err := lk.tryLock(); err != nil || !ok {
		lk.close()
		return nil
	}
	sock := filepath.Join(s.root, watchSockName)
	// The lock is ours, so a socket file left here belongs to an owner that is gone.
	if err := os.Remove(sock); err != nil && !errors.Is(err, fs.ErrNotExist) {
		s.log.Warn("memory: unable to remove a stale watcher socket", "err", err)
	}
	addr, done, err := sockAddr(s.root)
	if err != nil {
		lk.unlock()
		lk.close()
		return nil
	}
	ln, err := net.Listen("unix", addr)
	done()
	if err != nil {
		s.log.Warn("memory: unable to listen for freshness questions; CLI calls will scan", "err", err)
		lk.unlock()
		lk.close()
		return nil
	}
	// The lock is ours, so sync files left here are earlier owners'.
	if old, err := filepath.Glob(filepath.Join(s.root, watchSyncName+"*")); err == nil {
		for _, p := range old {
			_ = os.Remove(p)
		}
	}
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	syncRel := watchSyncName + "-" + hex.EncodeToString(rnd[:])
	if f, err := os.OpenFile(filepath.Join(s.root, syncRel), os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
		f.Close()
	}
	v := &vouch{s: s, lock: lk, ln: ln, asks: make(chan chan bool), syncRel: syncRel}
	go v.accept()
	s.recordWatcher("watching")
	return v
}

// accept answers each connection on its own goroutine (serveConn); the loop in Watch decides
// on freshness.
func (v *vouch) accept() {
	for {
		conn, err := v.ln.Accept()
		if err != nil {
			return
		}
		go v.serveConn(conn)
	}
}

// ask registers one caller; called from Watch's loop.
func (v *vouch) ask(reply chan bool) {
	if v.inflight {
		v.next = append(v.next, reply)
		return
	}
	v.cur = append(v.cur, reply)
	v.touch()
}

// touch makes the watcher see the sync file change (one IN_ATTRIB event, in order behind every
// change already queued).
func (v *vouch) touch() {
	now := time.Now()
	if err := os.Chtimes(filepath.Join(v.s.root, v.syncRel), now, now); err != nil {
		v.s.log.Warn("memory: unable to touch the sync file", "err", err)
		v.answer(false)
		return
	}
	v.inflight = true
}

// synced is the touch's event coming back: cur's callers get fresh (when the flush the loop
// just ran succeeded), and callers that came meanwhile get a touch of their own.
func (v *vouch) synced(fresh bool) {
	v.answer(fresh)
	if len(v.next) > 0 {
		v.cur, v.next = v.next, nil
		v.touch()
	}
}

func (v *vouch) answer(fresh bool) {
	for _, r := range v.cur {
		r <- fresh
	}
	v.cur, v.inflight = nil, false
}

// close stops answering: the socket goes before the lock, so a caller never reaches a socket
// whose owner already gave up; the record says the watcher stopped cleanly.
func (v *vouch) close() {
	v.ln.Close()
	_ = os.Remove(filepath.Join(v.s.root, watchSockName))
	_ = os.Remove(filepath.Join(v.s.root, v.syncRel))
	v.answer(false)
	for _, r := range v.next {
		r <- false
	}
	v.next = nil
	v.s.recordWatcher("stopped")
	v.lock.unlock()
	v.lock.close()
}
