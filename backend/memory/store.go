package memory

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Options tune a Store; zero values take the defaults.
type Options struct {
	// QuotaLimit is the number of ordinary entries allowed per scope instance.
	QuotaLimit int
	// Now returns the current time; tests move it.
	Now func() time.Time
	// Location is the local time zone for the journal's 04:00 rollover.
	Location *time.Location
	Logger   *slog.Logger
	// WriteFault, when set, runs before each memory file is written and an error it returns
	// fails that write as the disk would: the fault-injection suite's full disk where no
	// small file system can be mounted (backend/faults). Nil in every real process.
	WriteFault func(rel string) error

	// writable reports whether the memory folder takes writes (default homeWritable); tests
	// replace it because root writes through any mode bits.
	writable func(dir string) bool
	// indexWritable reports whether the index file takes writes (default indexFileWritable):
	// the tests' stand-in for an index another user owns, as root writes through mode bits.
	indexWritable func(dir string) bool
}

// Event tells subscribers that something in the store changed.
type Event struct {
	Kind  string   `json:"kind"` // memory.changed | quota.changed | memory.problems | kv.changed
	IDs   []string `json:"ids,omitempty"`
	Level string   `json:"level,omitempty"`
	// Agent and Keys name what a kv.changed event is about (Keys is empty when a hand edit or
	// another process changed the agent's file and which keys moved is not known).
	Agent string   `json:"agent,omitempty"`
	Keys  []string `json:"keys,omitempty"`
}

// Store is the canonical memory store of one home.
type Store struct {
	home string
	root string
	db   *sql.DB
	opts Options
	log  *slog.Logger

	flock *fileLock
	mu    sync.Mutex // serialises writers inside this process; flock does it across processes
	// bulkRows is how many files a reconcile must index to count as a bulk build
	// (bulkBuildRows; a test lowers it).
	bulkRows int
	// seenSeq is the newest audit row this process knows about; rows above it were written by
	// another process on the same home.
	seenSeq atomic.Int64
	recent  map[string]time.Time // kv event ids this process announced lately; guarded by subsMu
	// own holds the audit seqs this process wrote that the cross-process poll has not passed
	// yet: the poll skips exactly those rows, so every other process's change is announced,
	// however soon after ours it touches the same memory. Guarded by subsMu.
	own map[int64]bool
	// batchDirs collects folders to fsync once per batch; set only while mu is held.
	batchDirs map[string]bool
	// batchPaths collects the memory-relative paths a batch wrote, moved or removed, for the
	// history hook; set only while mu is held.
	batchPaths map[string]bool
	hookMu     sync.Mutex
	hook       AppliedHook
	// unheard holds project moves made before a hook was registered (see OnApplied).
	unheard []Applied
	// openDirty is set when the reconcile at open found files changed by hand.
	openDirty bool
	// indexBehind is set (mu held) when a batch failed below the codes after it may have
	// renamed files: the next batch reconciles first (see ApplyBatch).
	indexBehind bool
	// openedIndex is the index file the connections opened (see reopenIfIndexReplacedLocked).
	openedIndex os.FileInfo
	// indexGen counts index replacements, so the connection watchOtherProcesses holds is let go.
	indexGen atomic.Int64
	// indexFiles counts noteIndexFile's calls (IndexFile).
	indexFiles atomic.Int64
	// stampSnapshots counts the opens whose check read the index's stamps from the snapshot
	// (stamp_snapshot.go), for tests.
	stampSnapshots atomic.Int64
	// indexMoving is set while reopenIfIndexReplacedLocked lets go of every connection.
	indexMoving atomic.Bool
	// live is the context of a running Watch (the app, serve: a long-running process), which
	// RepairSoon repairs a damaged index under; repairing is set while it does.
	live      atomic.Pointer[context.Context]
	repairing atomic.Bool

	subsMu    sync.Mutex
	subs      map[int]func(Event)
	nextSub   int
	lastLevel string
	used      map[scopeRef]int // live ordinary entries per scope instance, for the quota ladder

	sweptMu sync.Mutex
	swept   []string // .tmp-* files removed since open, reported by doctor
	// readOnly is set when the home cannot be written: reads work, writers get home_read_only.
	readOnly bool
	// readOnlyIndex is the index file's path when it alone made the home read-only: the
	// folder takes writes, the file does not (a `sudo engram` left it root's, or a chmod).
	readOnlyIndex string
	// tmpIndex is a throwaway folder holding the index of a read-only home that had none usable.
	tmpIndex string
	// recovery is what the last repair of a damaged index did, in this process.
	recovery atomic.Pointer[Recovery]
	// kvCache holds each agent's kv.json as last read and checked, by the checksum of its
	// bytes: a file that did not change is not parsed and scanned for secrets again.
	kvCache kvCache
	// links is the [[link]] name index of the current graph generation (links.go).
	links linkCache
	// beforeRename, when set (tests), runs after a write's version check and before its rename.
	beforeRename func(path string)
	// beforeRemove, when set (tests), runs before a renamed memory's old file is removed and
	// before a deleted one moves to the trash.
	beforeRemove func(rel string)
	// mergeNote, set only while a batch runs a merge's keeper item, journals where the
	// keeper's file goes and its checksum right before it is put in place (merge_journal.go).
	mergeNote func(to, post string) error
	// reconcileFault, when set (tests), fails reconciles as a locked index would.
	reconcileFault func() error
	// sampledDay is the sampleMark of the last storage sample this process recorded.
	sampledDay atomic.Value
	// watcherFresh is set at open when a watching process vouched for the index (fresh.go),
	// so the open skips its scan; settled says how the open brought the index in line.
	watcherFresh bool
	settled      string
	// listed is the open's scan, handed to the reconcile that follows its check (settleByScan)
	// so a changed home is not scanned twice; set and consumed under the lock.
	listed *scanListing
	// calls answers api calls forwarded by CLI processes while this process owns the watcher
	// (fresh_calls.go); callAllow lists the methods it takes.
	callMu    sync.Mutex
	calls     CallHandler
	callAllow map[string]bool
	// projects resolves workdirs to project keys (identity.go), cached for this process.
	projects *Projects
}

// How Open brought the index in line with the files (Store.Settled).
const (
	SettledWatcher = "watcher" // a live watching process vouched for it: no scan
	SettledScan    = "scan"    // a full reconcile of every file's stamp
	SettledReindex = "reindex" // rebuilt (fresh, migrated or flagged index)
)

// Settled says how Open brought the index in line with the files: tests and the bench tell the
// watcher's answer from a scan with it.
func (s *Store) Settled() string { return s.settled }

// Open opens (creating when needed) the store under home: files in home/memory and the index
// in home/memory/index.sqlite3. A fresh, migrated or flagged index is rebuilt from the files;
// otherwise a reconcile picks up whatever changed while no Engram process was running. A
// damaged index is moved aside and rebuilt (see recoverLocked); a home that cannot be written
// opens read-only (see openReadOnly).
func Open(ctx context.Context, home string, opts Options) (*Store, error) {
	if opts.QuotaLimit <= 0 {
		opts.QuotaLimit = DefaultQuotaLimit
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Location == nil {
		opts.Location = time.Local
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	if opts.indexWritable == nil {
		opts.indexWritable = indexFileWritable
	}
	if opts.writable == nil {
		opts.writable = func(root string) bool { return folderWritable(root) && opts.indexWritable(root) }
	}
	root := filepath.Join(home, "memory")
	if info, err := os.Stat(root); err == nil && info.IsDir() && !opts.writable(root) {
		return openReadOnly(ctx, home, root, opts)
	}
	// Memories are private: folders 0700 and files 0600 whatever the umask (it only removes bits).
	for _, d := range []string{root, filepath.Join(root, ".trash"), filepath.Join(root, ".snapshots"), filepath.Join(root, ".archive")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, fmt.Errorf("memory: unable to create %s: %w", d, err)
		}
	}
	// A memory folder left open to others by an older build is closed: nothing below it is
	// reachable then, whatever the modes of what it holds.
	if info, err := os.Stat(root); err == nil && info.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(root, 0o700); err != nil {
			return nil, fmt.Errorf("memory: unable to protect %s: %w", root, err)
		}
	}
	lk, err := openLock(filepath.Join(root, ".lock"))
	if err != nil {
		return nil, err
	}
	s := &Store{home: home, root: root, opts: opts, log: opts.Logger, flock: lk, subs: map[int]func(Event){},
		bulkRows: bulkBuildRows}
	s.initProjects()
	// Asked before taking the lock: the watcher's own reconcile needs it to answer.
	s.watcherFresh = s.askWatcher(ctx)
	// The reconcile at open also sweeps .tmp-* files a crash left (removeTempsLocked).
	if err := s.withLock(func() error {
		s.finishSwapLocked()   // an in-place restore killed mid-swap (swap.go)
		s.finishMergesLocked() // a merge killed between its write and its deletes (merge_journal.go); the settle below indexes what it did
		return s.openIndexLocked(ctx)
	}); err != nil {
		if s.db != nil {
			s.db.Close()
		}
		lk.close()
		return nil, err
	}
	s.adoptKnownProjects(ctx)
	return s, nil
}

// indexName is the index file inside the memory folder; SQLite adds -wal and -shm beside it.
const indexName = "index.sqlite3"

func (s *Store) indexPath() string { return filepath.Join(s.root, indexName) }

// openIndexLocked opens, migrates and reconciles the index; an index SQLite reports damaged
// ("file is not a database", "malformed"), or one another build migrated differently
// (DivergedError), is moved aside and rebuilt instead of failing every verb.
func (s *Store) openIndexLocked(ctx context.Context) error {
	err := s.settleLocked(ctx)
	if err != nil && (IsCorrupt(err) || IsDiverged(err)) {
		return s.recoverLocked(ctx, err)
	}
	return err
}

// settleLocked opens the index when needed, migrates it and brings it in line with the files.
func (s *Store) settleLocked(ctx context.Context) error {
	if s.db == nil {
		if err := privateFile(s.indexPath()); err != nil {
			return err
		}
		db, err := openDB(s.indexPath(), false)
		if err != nil {
			return err
		}
		s.db = db
	}
	needs, err := migrate(ctx, s.db)
	if err != nil {
		return err
	}
	if _, err := normaliseMetaTimes(ctx, s.db, false); err != nil {
		return err
	}
	switch {
	case needs:
		s.settled = SettledReindex
		_, err = s.reindexLocked(ctx)
	case s.watcherFresh:
		// A watching process reconciled everything up to our question: nothing to scan (it
		// marked its own history dirty for what it found). Asked once: a repair
		// (recoverLocked) settles again and scans.
		s.settled, s.watcherFresh = SettledWatcher, false
	default:
		s.settled = SettledScan
		var rep ReconcileReport
		rep, err = s.settleByScan(ctx)
		// Files edited while no Engram process ran: the history commits them once attached.
		s.openDirty = s.openDirty || rep.Added+rep.Updated+rep.Removed > 0
	}
	if err == nil {
		s.noteIndexFile()
	}
	return err
}

// sqliteURI is path as a file: URI. Every byte outside the unreserved set is percent-encoded:
// the driver cuts the name at the first "?", and SQLite reads "#" and "%" specially, so a home
// named "a#b?c%20d" would otherwise put the index somewhere else or fail to open.
func sqliteURI(path string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.WriteString("file:")
	for _, c := range []byte(filepath.ToSlash(path)) {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.IndexByte("-._~/", c) >= 0:
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// openDB opens the index; readOnly opens it immutable, for a home this process cannot write
// (no -wal or -shm can be created there, and nothing will change it under us).
func openDB(path string, readOnly bool) (*sql.DB, error) {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(15000)")
	if readOnly {
		q.Set("mode", "ro")
		q.Set("immutable", "1")
		q.Add("_pragma", "query_only(1)")
	} else {
		if err := newIndexPageSize(path); err != nil {
			return nil, err
		}
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous(NORMAL)")
		q.Set("_txlock", "immediate")
	}
	q.Add("_pragma", "foreign_keys(1)")
	// Reads do not go through a memory map of the file (mmap_size stays 0), although at 100k
	// memories the read call per page was a fifth of a search's CPU: the index file cut short
	// in place under a running process (a tool emptying it, a failing disk) makes a mapped read
	// of the lost pages a SIGBUS, which kills the Go process outright, where read calls give an
	// error the store reports (TestTruncatedIndexDoesNotKillTheProcess).
	db, err := sql.Open("sqlite", sqliteURI(path)+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("memory: unable to open index: %w", err)
	}
	db.SetMaxOpenConns(4)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("memory: unable to open index %s: %w", path, err)
	}
	return db, nil
}

// Close releases the index and the lock file.
func (s *Store) Close() error {
	// Wait for a writer in this process to finish its batch before the index goes away.
	s.mu.Lock()
	defer s.mu.Unlock()
	s.optimize(context.Background()) // see lean.go
	err := s.db.Close()
	if s.flock != nil {
		if cerr := s.flock.close(); err == nil {
			err = cerr
		}
	}
	if s.tmpIndex != "" {
		_ = os.RemoveAll(s.tmpIndex)
	}
	return err
}

// Home is the Engram home folder.
func (s *Store) Home() string { return s.home }

// Root is the memory folder holding the Markdown files.
func (s *Store) Root() string { return s.root }

// Now is the store's clock.
func (s *Store) Now() time.Time { return s.opts.Now() }

// QuotaLimit is the per-scope limit in force.
func (s *Store) QuotaLimit() int { return s.opts.QuotaLimit }

// withLock runs fn holding the in-process mutex and the cross-process file lock.
func (s *Store) withLock(fn func() error) error {
	if s.readOnly {
		return s.readOnlyErr()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.flock.lock(); err != nil {
		return err
	}
	defer s.flock.unlock()
	return fn()
}

// Subscribe registers fn for store events and returns a function that removes it.
func (s *Store) Subscribe(fn func(Event)) (cancel func()) {
	s.subsMu.Lock()
	defer s.subsMu.Unlock()
	id := s.nextSub
	s.nextSub++
	s.subs[id] = fn
	return func() {
		s.subsMu.Lock()
		delete(s.subs, id)
		s.subsMu.Unlock()
	}
}

func (s *Store) emit(ev Event) {
	s.subsMu.Lock()
	fns := make([]func(Event), 0, len(s.subs))
	for _, fn := range s.subs {
		fns = append(fns, fn)
	}
	s.subsMu.Unlock()
	for _, fn := range fns {
		fn(ev)
	}
}

// scopeRef names one scope instance.
type scopeRef struct {
	scope Scope
	key   string
}

// changed tells subscribers which memories changed and, when the quota ladder moved, the level.
func (s *Store) changed(ctx context.Context, ids []string) { s.changedScopes(ctx, ids, nil) }

// changedScopes is changed with the scope instances a batch touched: recounting only those
// keeps a write from paying for a full quota summary at 100k memories. A nil set (reconcile,
// where anything may have moved) recounts everything.
func (s *Store) changedScopes(ctx context.Context, ids []string, touched map[scopeRef]bool) {
	if len(ids) > 0 {
		s.emit(Event{Kind: "memory.changed", IDs: ids})
	}
	s.sampleStorage(ctx)
	s.subsMu.Lock()
	full := s.used == nil || touched == nil
	s.subsMu.Unlock()
	fresh := map[scopeRef]int{}
	if full {
		q, err := s.Quota(ctx)
		if err != nil {
			return
		}
		for _, sq := range q.Scopes {
			fresh[scopeRef{sq.Scope, sq.Key}] = sq.Used
		}
	} else {
		for ref := range touched {
			n, err := usedIn(ctx, s.db, ref.scope, ref.key)
			if err != nil {
				return
			}
			fresh[ref] = n
		}
	}
	s.subsMu.Lock()
	if full {
		s.used = fresh
	} else {
		for ref, n := range fresh {
			s.used[ref] = n
		}
	}
	level := LadderLevel(s.opts.QuotaLimit)
	for _, n := range s.used {
		if l := LadderLevel(s.opts.QuotaLimit - n); levelRank[l] > levelRank[level] {
			level = l
		}
	}
	moved := level != s.lastLevel
	s.lastLevel = level
	s.subsMu.Unlock()
	if moved {
		s.emit(Event{Kind: "quota.changed", Level: level})
	}
}

func (s *Store) abs(rel string) string { return filepath.Join(s.root, filepath.FromSlash(rel)) }

func (s *Store) rfc(t time.Time) string { return indexTime(t) }

// IndexTimeLayout is how the index stores instants outside memory_meta (audit, runs, usage;
// memory_meta keeps metaTime since migration 16): UTC with a fixed nine-digit fraction, so
// that comparing and sorting the text (ORDER BY, MIN, <) orders the instants. RFC3339Nano drops
// trailing zeros, which makes "…05.1Z" sort after "…05.12Z".
const IndexTimeLayout = "2006-01-02T15:04:05.000000000Z07:00"

func indexTime(t time.Time) string { return t.UTC().Format(IndexTimeLayout) }
