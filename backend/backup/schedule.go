package backup

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"engram/backend/memory"
)

// Schedule is Settings → Data → scheduled backups: every IntervalHours (0: off) a backup is
// written under <home>/backups and only the newest Keep scheduled ones are kept.
type Schedule struct {
	IntervalHours int `json:"interval_hours"`
	Keep          int `json:"keep"`
}

// Limits of a schedule.
const (
	MaxIntervalHours = 24 * 90
	MaxKeep          = 365
	DefaultKeep      = 7
	settingKey       = "backup.schedule"
)

// Validate refuses an interval or a count out of range.
func (s Schedule) Validate() error {
	if s.IntervalHours < 0 || s.IntervalHours > MaxIntervalHours || s.Keep < 1 || s.Keep > MaxKeep {
		return codeErr(CodeInvalidSchedule, map[string]any{"MaxHours": MaxIntervalHours, "MaxKeep": MaxKeep})
	}
	return nil
}

// LoadSchedule reads the schedule from the index's settings (off, keep 7 by default).
func LoadSchedule(ctx context.Context, st *memory.Store) (Schedule, error) {
	sc := Schedule{Keep: DefaultKeep}
	v, ok, err := st.Setting(ctx, settingKey)
	if err != nil || !ok {
		return sc, err
	}
	if json.Unmarshal([]byte(v), &sc) != nil || sc.Validate() != nil {
		return Schedule{Keep: DefaultKeep}, nil // a hand-broken value reads as the default
	}
	return sc, nil
}

// SaveSchedule stores a validated schedule.
func SaveSchedule(ctx context.Context, st *memory.Store, sc Schedule) error {
	if err := sc.Validate(); err != nil {
		return err
	}
	data, _ := json.Marshal(sc)
	return st.PutSetting(ctx, settingKey, string(data))
}

// Entry is one backup file in the backups folder.
type Entry struct {
	Path      string `json:"path"`
	Name      string `json:"name"`
	Size      int64  `json:"size"`
	Modified  string `json:"modified"`
	Scheduled bool   `json:"scheduled"`
}

// List returns the backups in dir (Engram's names only), newest first.
func List(dir string) ([]Entry, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return []Entry{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := []Entry{}
	for _, e := range entries {
		n := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(n, Ext) || !(strings.HasPrefix(n, Prefix) || strings.HasPrefix(n, PrePrefix)) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		out = append(out, Entry{Path: filepath.Join(dir, n), Name: n, Size: info.Size(),
			Modified: info.ModTime().UTC().Format(time.RFC3339), Scheduled: strings.HasPrefix(n, Prefix)})
	}
	// Names carry a UTC stamp, and a "-2", "-3"… when taken in the same second: newest first by
	// stamp, then by that number (by name, "…Z.tar.gz" came after "…Z-3.tar.gz", and a
	// pre-restore backup before every scheduled one whatever its time).
	sort.SliceStable(out, func(i, j int) bool {
		si, ni := nameOrder(out[i].Name)
		sj, nj := nameOrder(out[j].Name)
		if si != sj {
			return si > sj
		}
		return ni > nj
	})
	return out, nil
}

// nameOrder reads a backup name Engram gave: its UTC stamp and its number within the second
// (1 without a suffix).
func nameOrder(name string) (string, int) {
	stem := strings.TrimSuffix(name, Ext)
	for _, p := range []string{Prefix, PrePrefix} {
		stem = strings.TrimPrefix(stem, p)
	}
	if i := strings.LastIndexByte(stem, '-'); i > 0 {
		if n, err := strconv.Atoi(stem[i+1:]); err == nil && n > 1 {
			return stem[:i], n
		}
	}
	return stem, 1
}

// Prune removes the scheduled backups in dir beyond the newest keep; pre-restore backups and
// files named by the person are never removed. It returns the paths removed.
func Prune(dir string, keep int) ([]string, error) {
	all, err := List(dir)
	if err != nil {
		return nil, err
	}
	var removed []string
	n := 0
	for _, e := range all {
		if !e.Scheduled {
			continue
		}
		if n++; n <= keep {
			continue
		}
		if err := os.Remove(e.Path); err == nil {
			removed = append(removed, e.Path)
		}
	}
	return removed, nil
}

// Scheduler writes scheduled backups in a long-running process (desktop, serve). One timer is
// armed from the newest scheduled backup's time plus the interval; a change of the schedule
// wakes it. Two processes on one home take turns through a lock file, and the second finds
// the first one's fresh backup and waits.
type Scheduler struct {
	st         *memory.Store
	appVersion string
	log        *slog.Logger
	wake       chan struct{}
	// OnDone hears each scheduled backup (the api publishes an event).
	OnDone func(Result, error)
}

// recheck bounds how long the scheduler sleeps before reading the schedule again: another
// process (the CLI) may have changed it without waking this one.
const recheck = 10 * time.Minute

// NewScheduler builds a scheduler over st; Run starts it.
func NewScheduler(st *memory.Store, appVersion string, log *slog.Logger) *Scheduler {
	if log == nil {
		log = slog.Default()
	}
	return &Scheduler{st: st, appVersion: appVersion, log: log, wake: make(chan struct{}, 1)}
}

// Wake makes the scheduler read the schedule again now (it was changed).
func (s *Scheduler) Wake() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Due says when the next scheduled backup is due (zero when the schedule is off).
func (s *Scheduler) Due(ctx context.Context) (time.Time, Schedule, error) {
	sc, err := LoadSchedule(ctx, s.st)
	if err != nil || sc.IntervalHours == 0 {
		return time.Time{}, sc, err
	}
	all, err := List(DefaultDir(s.st.Home()))
	if err != nil {
		return time.Time{}, sc, err
	}
	for _, e := range all {
		if e.Scheduled {
			t, err := time.Parse("20060102T150405Z", strings.TrimSuffix(strings.TrimPrefix(e.Name, Prefix), Ext))
			if err == nil {
				return t.Add(time.Duration(sc.IntervalHours) * time.Hour), sc, nil
			}
		}
	}
	return s.st.Now(), sc, nil // never backed up: due now
}

// Run waits for due backups until ctx ends.
func (s *Scheduler) Run(ctx context.Context) {
	for {
		wait := recheck
		due, sc, err := s.Due(ctx)
		if err != nil {
			s.log.Warn("backup: unable to read the schedule", "err", err)
		} else if !due.IsZero() {
			if d := due.Sub(s.st.Now()); d <= 0 {
				s.runOnce(ctx, sc)
				continue
			} else if d < wait {
				wait = d
			}
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-s.wake:
			t.Stop()
		case <-t.C:
		}
	}
}

// runOnce writes one scheduled backup and prunes, holding the backups folder's lock.
func (s *Scheduler) runOnce(ctx context.Context, sc Schedule) {
	dir := DefaultDir(s.st.Home())
	if err := os.MkdirAll(dir, 0o700); err != nil {
		s.log.Warn("backup: unable to create the backups folder", "err", err)
		return
	}
	lk, err := memory.OpenFileLock(filepath.Join(dir, ".schedule.lock"))
	if err != nil {
		s.log.Warn("backup: unable to open the schedule lock", "err", err)
		return
	}
	defer lk.Close()
	ok, err := lk.TryLock()
	if err != nil || !ok {
		// Another process is writing the scheduled backup; sleep until it shows up.
		t := time.NewTimer(time.Minute)
		defer t.Stop()
		select {
		case <-ctx.Done():
		case <-t.C:
		}
		return
	}
	defer lk.Unlock()
	if due, _, err := s.Due(ctx); err != nil || due.IsZero() || due.After(s.st.Now()) {
		return // the other process just wrote it, or the schedule was turned off
	}
	res, err := Create(ctx, s.st, Options{AppVersion: s.appVersion})
	if err == nil {
		_, err = Prune(dir, sc.Keep)
	}
	if err != nil {
		s.log.Warn("backup: scheduled backup failed", "err", err)
		// Do not spin on a failing backup: try again after the recheck period.
		t := time.NewTimer(recheck)
		defer t.Stop()
		select {
		case <-ctx.Done():
		case <-t.C:
		}
	}
	if s.OnDone != nil {
		s.OnDone(res, err)
	}
}
