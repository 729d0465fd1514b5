package api

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"engram/backend/backup"
	"engram/backend/memory"
)

// BackupService is Settings → Data → Backup and `engram backup`: whole-home archives (the
// memory files, the agents' kv.json files and a consistent copy of the index), their
// preview, restore to a new home or in place, and the backup schedule. Progress goes out as
// index.progress events with op backup | restore | preview.
type BackupService struct{ a *API }

// Codes of the backup section (backup's own codes pass through from backend/backup).
const (
	// CodeBackupPathRemote refuses a path outside the backups folder from a remote caller: a
	// browser over the bridge may name only the backups listed to it.
	CodeBackupPathRemote = "backup_path_remote"
)

// BackupSchedule is the backup schedule (interval in hours, 0 off; how many to keep).
type BackupSchedule = backup.Schedule

// BackupLeftOut is an entry of the memory folder a backup did not archive, and why.
type BackupLeftOut = backup.LeftOut

// BackupHomeDiff is what a restore in place would replace or remove of this home's files.
type BackupHomeDiff = backup.HomeDiff

// DoctorFinding is one thing doctor found, with the command that fixes it.
type DoctorFinding = memory.Finding

// BackupCreateParams name the archive to write ("" → <home>/backups/engram-backup-<time>.tar.gz).
type BackupCreateParams struct {
	To string `json:"to,omitempty"`
}

// BackupPathParams name an archive: a path, or for remote callers a name in the backups folder.
type BackupPathParams struct {
	Path string `json:"path"`
}

// BackupRestoreParams name the archive and, for a restore to a new home, that home ("" restores
// in place, after backing up the current state).
type BackupRestoreParams struct {
	Path string `json:"path"`
	Home string `json:"home,omitempty"`
}

// BackupListResult is the backups folder, its backups newest first, the schedule and when the
// next scheduled backup is due ("" when the schedule is off).
type BackupListResult struct {
	Dir      string          `json:"dir"`
	Backups  []backup.Entry  `json:"backups"`
	Schedule backup.Schedule `json:"schedule"`
	NextDue  string          `json:"next_due"`
}

// Create writes a backup now (backup.create).
func (s *BackupService) Create(p BackupCreateParams) (backup.Result, error) {
	if err := s.a.Wait(); err != nil {
		return backup.Result{}, err
	}
	if p.To != "" && !s.a.personCaller() {
		return backup.Result{}, s.a.newError(CodeBackupPathRemote, map[string]any{"Path": p.To})
	}
	progress := s.a.indexProgress("backup")
	r, err := backup.Create(s.a.ctx, s.a.deps.Store, backup.Options{Dest: p.To, AppVersion: s.a.deps.Version, Progress: backup.Progress(progress)})
	r.Manifest.Files = nil // file_count says how many; the list can outgrow a bridge message
	return r, s.a.fail(err)
}

// List returns the backups folder's backups and the schedule (backup.list).
func (s *BackupService) List(_ Empty) (BackupListResult, error) {
	if err := s.a.Wait(); err != nil {
		return BackupListResult{}, err
	}
	dir := backup.DefaultDir(s.a.deps.Store.Home())
	all, err := backup.List(dir)
	if err != nil {
		return BackupListResult{}, s.a.fail(err)
	}
	sch := backup.NewScheduler(s.a.deps.Store, s.a.deps.Version, nil)
	due, sc, err := sch.Due(s.a.ctx)
	if err != nil {
		return BackupListResult{}, s.a.fail(err)
	}
	out := BackupListResult{Dir: dir, Backups: all, Schedule: sc}
	if !due.IsZero() {
		out.NextDue = due.UTC().Format(time.RFC3339)
	}
	return out, nil
}

// resolve turns a caller's archive name into a path: the person may name any file; a remote
// caller only a backup in the backups folder, by its name.
func (s *BackupService) resolve(p string) (string, error) {
	dir := backup.DefaultDir(s.a.deps.Store.Home())
	if s.a.personCaller() {
		if p == "" {
			return "", s.a.newError(CodeInvalidParams, map[string]any{"Method": "backup", "Detail": "path is required"})
		}
		if !filepath.IsAbs(p) && !strings.ContainsRune(p, filepath.Separator) {
			if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
				return filepath.Join(dir, p), nil // a name from the backups list
			}
		}
		return p, nil
	}
	name := filepath.Base(p)
	if p == "" || (p != name && filepath.Clean(p) != filepath.Join(dir, name)) || !strings.HasSuffix(name, backup.Ext) {
		return "", s.a.newError(CodeBackupPathRemote, map[string]any{"Path": p})
	}
	return filepath.Join(dir, name), nil
}

// BackupPreview is a checked archive's manifest and, beside it, what a restore in place would
// change in this home (HomeDiff: its memory files the backup would replace or remove).
type BackupPreview struct {
	backup.Manifest
	HomeDiff BackupHomeDiff `json:"home_diff"`
}

// Preview checks an archive as a restore would (every checksum) and returns its manifest with
// what a restore in place would replace or remove here; nothing is restored (backup.preview).
// It said only what the backup held, so newer memories a restore would remove went unsaid.
func (s *BackupService) Preview(p BackupPathParams) (BackupPreview, error) {
	if err := s.a.Wait(); err != nil {
		return BackupPreview{}, err
	}
	path, err := s.resolve(p.Path)
	if err != nil {
		return BackupPreview{}, err
	}
	m, err := backup.Preview(s.a.ctx, path, s.a.deps.Store.Home(), backup.Progress(s.a.indexProgress("preview")))
	if err != nil {
		return BackupPreview{}, s.a.fail(err)
	}
	d, err := backup.CompareHome(s.a.deps.Store.Root(), m)
	m.Files = nil
	return BackupPreview{Manifest: m, HomeDiff: d}, s.a.fail(err)
}

// Restore restores an archive (backup.restore): with Home to that new home, else in place
// after backing up the current state. The archive is checked whole before anything is touched.
func (s *BackupService) Restore(p BackupRestoreParams) (backup.RestoreResult, error) {
	if err := s.a.Wait(); err != nil {
		return backup.RestoreResult{}, err
	}
	path, err := s.resolve(p.Path)
	if err != nil {
		return backup.RestoreResult{}, err
	}
	progress := backup.Progress(s.a.indexProgress("restore"))
	if p.Home != "" {
		if !s.a.personCaller() {
			return backup.RestoreResult{}, s.a.newError(CodeBackupPathRemote, map[string]any{"Path": p.Home})
		}
		r, err := backup.RestoreNewHome(s.a.ctx, path, p.Home, progress)
		r.Manifest.Files = nil
		return r, s.a.fail(err)
	}
	r, err := backup.RestoreInPlace(s.a.ctx, s.a.deps.Store, path, s.a.deps.Version, progress)
	r.Manifest.Files = nil
	if err == nil && s.a.deps.History != nil {
		// The restored files as a version of the history (kept or restored with them).
		err = s.a.deps.Store.Locked(func() error { _, err := s.a.deps.History.CommitRestored(); return err })
	}
	return r, s.a.fail(err)
}

// Schedule returns the backup schedule (backup.schedule).
func (s *BackupService) Schedule(_ Empty) (backup.Schedule, error) {
	if err := s.a.Wait(); err != nil {
		return backup.Schedule{}, err
	}
	sc, err := backup.LoadSchedule(s.a.ctx, s.a.deps.Store)
	return sc, s.a.fail(err)
}

// UpdateSchedule stores the schedule and wakes this process's scheduler (backup.updateSchedule).
func (s *BackupService) UpdateSchedule(p backup.Schedule) (backup.Schedule, error) {
	if err := s.a.Wait(); err != nil {
		return backup.Schedule{}, err
	}
	if err := backup.SaveSchedule(s.a.ctx, s.a.deps.Store, p); err != nil {
		return backup.Schedule{}, s.a.fail(err)
	}
	if s.a.deps.Backups != nil {
		s.a.deps.Backups.Wake()
	}
	return p, nil
}

// MaintenanceService is `engram vacuum` / `engram cleanup` and their buttons in Settings → Data.
type MaintenanceService struct{ a *API }

// CleanupParams: OlderThan is a duration like "30d", "12h" or "90m"; DryRun only lists.
type CleanupParams struct {
	OlderThan string `json:"older_than"`
	DryRun    bool   `json:"dry_run,omitempty"`
}

// Vacuum drops orphan rows, closes stuck runs and compacts the index (maintenance.vacuum).
func (s *MaintenanceService) Vacuum(_ Empty) (memory.VacuumReport, error) {
	if err := s.a.Wait(); err != nil {
		return memory.VacuumReport{}, err
	}
	progress := s.a.indexProgress("vacuum")
	r, err := s.a.deps.Store.Vacuum(memory.WithProgress(s.a.ctx, progress))
	if err == nil {
		progress("done", 1, 1)
	}
	return r, s.a.fail(err)
}

// Cleanup removes (or with dry_run lists) trash, snapshot and archive files older than
// older_than; live memories are never touched (maintenance.cleanup).
func (s *MaintenanceService) Cleanup(p CleanupParams) (memory.CleanupReport, error) {
	if err := s.a.Wait(); err != nil {
		return memory.CleanupReport{}, err
	}
	d, ok := ParseAge(p.OlderThan)
	if !ok {
		return memory.CleanupReport{}, s.a.newError(CodeInvalidAge, map[string]any{"Value": p.OlderThan})
	}
	progress := s.a.indexProgress("cleanup")
	r, err := s.a.deps.Store.Cleanup(memory.WithProgress(s.a.ctx, progress), d, p.DryRun)
	if err == nil {
		progress("done", len(r.Items), len(r.Items))
	}
	return r, s.a.fail(err)
}

// CodeInvalidAge refuses an --older-than that is not a positive number of d, h or m.
const CodeInvalidAge = "invalid_age"

// ParseAge reads "30d", "12h", "90m" (or any Go duration) as a positive duration.
func ParseAge(s string) (time.Duration, bool) {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, "d") {
		var n int
		for _, c := range strings.TrimSuffix(s, "d") {
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
			if n > 100000 {
				return 0, false
			}
		}
		if n <= 0 {
			return 0, false
		}
		return time.Duration(n) * 24 * time.Hour, true
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, false
	}
	return d, true
}
