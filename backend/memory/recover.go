package memory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// CodeIndexCorrupt is a damaged index this process cannot repair in place (another part of
// it holds connections to the file); restarting Engram, or `engram doctor` while no Engram
// process runs, rebuilds it.
const CodeIndexCorrupt = "index_corrupt"

// CodeIndexRepairing is a damaged index this long-running process is rebuilding from the files
// in the background (RepairSoon): the call can be tried again in a moment.
const CodeIndexRepairing = "index_repairing"

// CodeIndexRecovered is the notice that a damaged index was moved aside and rebuilt.
const CodeIndexRecovered = "index_recovered"

// CodeIndexReplaced is the notice that an index another build of Engram had migrated
// differently (DivergedError) was moved aside and rebuilt.
const CodeIndexReplaced = "index_replaced"

// Recovery is what the repair of a damaged index did.
type Recovery struct {
	Code string `json:"code"` // index_recovered, index_replaced
	At   string `json:"at"`
	// Cause is SQLite's complaint ("file is not a database", "database disk image is malformed"),
	// or for index_replaced the step that differs (`20: "vector version" ≠ "…"`).
	Cause string `json:"cause"`
	// MovedTo is where the damaged file went, relative to the memory folder.
	MovedTo string          `json:"moved_to"`
	Tables  []SalvagedTable `json:"tables"`
	// Rebuilt counts the memories indexed again from the Markdown files.
	Rebuilt int `json:"rebuilt"`
	// Message is the notice translated for people; filled by api.
	Message string `json:"message,omitempty"`
}

// SalvagedTable says what survived of one table the files cannot rebuild. Lost is -1 when the
// damaged file could not even say how many rows it held.
type SalvagedTable struct {
	Table    string `json:"table"`
	Salvaged int    `json:"salvaged"`
	Lost     int    `json:"lost"`
	// Message is the line translated for people; filled by api.
	Message string `json:"message,omitempty"`
}

// Args are the placeholders of the index_recovered notice.
func (r *Recovery) Args() map[string]any {
	return map[string]any{"At": r.At, "Cause": r.Cause, "Path": r.MovedTo, "Rebuilt": r.Rebuilt}
}

// recoveryKey keeps the last repair in settings so a later process (the desktop app after the
// CLI repaired the index) can still tell the person.
const recoveryKey = "index.last_recovery"

// errIndexNotAFile is a folder (or a device) where the index file belongs: the home opened
// read-only and every change was refused with "give the index file back to yourself", which
// nothing could do. It is moved aside and the index rebuilt, as a damaged file is.
var errIndexNotAFile = errors.New("the index is not a file (a folder stands in its place)")

// IsCorrupt reports whether err is SQLite saying the index file is damaged (or no index file
// stands where it belongs).
func IsCorrupt(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, errIndexNotAFile) {
		return true
	}
	var ce interface{ Code() int }
	if errors.As(err, &ce) {
		switch ce.Code() & 0xff {
		case 11, 26: // SQLITE_CORRUPT, SQLITE_NOTADB
			return true
		}
	}
	msg := err.Error()
	return strings.Contains(msg, "file is not a database") || strings.Contains(msg, "database disk image is malformed")
}

// derivedTables are rebuilt from the files (or keyed by index row ids that a rebuild renumbers);
// every other table holds history the files do not, and is salvaged row by row.
var derivedTables = map[string]bool{
	"memory_meta": true, "memory_vec": true, "recall_vec_log": true, "memory_problems": true,
	"stamp_version": true, "graph_entities": true, "graph_relations": true, "graph_mentions": true, "schema_migrations": true,
}

// recoverLocked moves a damaged index aside (with its -wal and -shm), builds a fresh one,
// salvages what it can of the tables the files cannot rebuild, rebuilds the rest from the
// files and records what happened. The caller holds the write lock.
//
// The pool must hold no connection to the old file: SQLite removes "<name>-wal" by name when
// its last connection closes, which after the move would be the new index's log. At open
// nothing else has the pool; later the process first lets go of every connection
// (letGoOfConnsLocked) and reports index_corrupt only when a reader holds on to one.
func (s *Store) recoverLocked(ctx context.Context, cause error) error {
	path := s.indexPath()
	if s.db != nil {
		// A long-running process (its watcher keeps a connection, readers come and go) lets
		// go of every connection first, as when the file is replaced (indexgone.go).
		s.indexMoving.Store(true)
		defer s.indexMoving.Store(false)
		if !s.letGoOfConnsLocked(ctx) {
			return codeErr(CodeIndexCorrupt, map[string]any{"Detail": cause.Error()},
				"the index is damaged (%v); restart Engram to rebuild it", cause)
		}
	}
	if othersHoldIndex(path) {
		return codeErr(CodeIndexCorrupt, map[string]any{"Detail": cause.Error()},
			"the index is damaged (%v) and another Engram process has it open; close it to rebuild", cause)
	}
	code, label, why := CodeIndexRecovered, "corrupt", rootCause(cause)
	var dv *DivergedError
	if errors.As(cause, &dv) {
		code, label, why = CodeIndexReplaced, "other-build", dv.detail()
	}
	stamp := s.opts.Now().UTC().Format("20060102T150405Z")
	aside := path + "." + label + "-" + stamp
	for n := 2; fileExists(aside); n++ {
		aside = fmt.Sprintf("%s.%s-%s-%d", path, label, stamp, n)
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Rename(path+suffix, aside+suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("memory: unable to move the damaged index aside: %w", err)
		}
	}
	s.log.Warn("memory: the index cannot be used as it is; moved aside and rebuilding from the files", "cause", cause, "moved_to", aside)
	if err := privateFile(path); err != nil {
		return err
	}
	if s.db == nil {
		db, err := openDB(path, false)
		if err != nil {
			return err
		}
		s.db = db
	} else {
		s.db.SetMaxIdleConns(2) // every new connection opens the new file
	}
	if _, err := migrate(ctx, s.db); err != nil {
		return err
	}
	rel, _ := filepath.Rel(s.root, aside)
	rec := &Recovery{Code: code, At: s.opts.Now().UTC().Format(time.RFC3339), Cause: why,
		MovedTo: filepath.ToSlash(rel)}
	var err error
	if rec.Tables, err = s.salvage(ctx, aside); err != nil {
		return err
	}
	rep, err := s.reindexLocked(ctx)
	if err != nil {
		return err
	}
	rec.Rebuilt = rep.Added
	s.noteIndexFile()
	data, _ := json.Marshal(rec)
	if err := s.PutSetting(ctx, recoveryKey, string(data)); err != nil {
		return err
	}
	s.recovery.Store(rec)
	return nil
}

func fileExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// Recovery returns the last repair of a damaged index: the one this process made, else the
// one recorded in the index by an earlier process; nil when there was none.
func (s *Store) Recovery(ctx context.Context) *Recovery {
	if r := s.RepairedHere(); r != nil {
		return r
	}
	raw, ok, err := s.Setting(ctx, recoveryKey)
	if err != nil || !ok {
		return nil
	}
	var r Recovery
	if json.Unmarshal([]byte(raw), &r) != nil || r.Code == "" {
		return nil
	}
	return &r
}

// recoverIfCorrupt repairs the index when err says it is damaged: reported by reindex and
// doctor, which must work on a damaged index. It returns err unchanged otherwise.
func (s *Store) recoverIfCorrupt(ctx context.Context, err error) error {
	if !IsCorrupt(err) {
		return err
	}
	rerr := s.withLock(func() error { return s.recoverLocked(ctx, err) })
	if rerr != nil {
		return rerr
	}
	s.emit(Event{Kind: "memory.problems"})
	s.changed(ctx, nil)
	return nil
}

// RepairSoon starts mending a damaged index in the background when err says the index is
// damaged and this is a long-running process (its watcher runs), and reports whether it did:
// the app and serve then heal themselves instead of failing every call until a restart. It
// checks first, so the errors of calls that raced the repair do not start another. A short
// process (the CLI) could not finish a rebuild before it exits: its way out stays reindex and
// doctor.
func (s *Store) RepairSoon(err error) bool {
	if !IsCorrupt(err) || s.readOnly {
		return false
	}
	live := s.live.Load()
	if live == nil {
		return false
	}
	if !s.repairing.CompareAndSwap(false, true) {
		return true
	}
	go func() {
		defer s.repairing.Store(false)
		if _, rerr := s.checkAndRepair(*live); rerr != nil {
			s.log.Warn("memory: unable to repair the damaged index", "err", rerr)
		}
	}()
	return true
}

// checkAndRepair runs SQLite's quick_check and, when it finds damage, repairs the index (when
// this process can) and checks again. It returns the check's verdict, "ok" when healthy.
func (s *Store) checkAndRepair(ctx context.Context) (string, error) {
	verdict, err := quickCheck(ctx, s)
	if err == nil && verdict == "ok" || s.readOnly {
		if err != nil {
			return "", fmt.Errorf("memory: unable to check integrity: %w", err)
		}
		return verdict, nil
	}
	if err == nil {
		err = fmt.Errorf("database disk image is malformed: %s", verdict)
	}
	if !IsCorrupt(err) {
		return "", fmt.Errorf("memory: unable to check integrity: %w", err)
	}
	if err := s.recoverIfCorrupt(ctx, err); err != nil {
		return "", err
	}
	if verdict, err = quickCheck(ctx, s); err != nil {
		return "", fmt.Errorf("memory: unable to check integrity: %w", err)
	}
	return verdict, nil
}

func quickCheck(ctx context.Context, s *Store) (string, error) {
	var v string
	err := s.db.QueryRowContext(ctx, `PRAGMA quick_check`).Scan(&v)
	return v, err
}

// rootCause is SQLite's own words, without the layers of context wrapped around them.
func rootCause(err error) string {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err.Error()
		}
		err = next
	}
}

// RepairedHere is the repair this process made of a damaged index (at open, by doctor or by
// reindex), so the person is told once by whoever opened the home; nil when there was none.
func (s *Store) RepairedHere() *Recovery {
	cur := s.recovery.Load()
	if cur == nil {
		return nil
	}
	r := *cur
	r.Tables = append([]SalvagedTable(nil), cur.Tables...)
	return &r
}
