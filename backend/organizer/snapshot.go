package organizer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"engram/backend/memory"
)

// SnapshotRetention is how long snapshots are kept before they are pruned.
const SnapshotRetention = 30 * 24 * time.Hour

// snapshotManifest lists what a run's snapshot folder holds.
type snapshotManifest struct {
	RunID     string          `json:"run_id"`
	CreatedAt time.Time       `json:"created_at"`
	Files     []snapshotEntry `json:"files"`
}

type snapshotEntry struct {
	ID      string    `json:"id"`
	Path    string    `json:"path"`
	Version string    `json:"version"`
	File    string    `json:"file"`
	At      time.Time `json:"at"`
}

const manifestName = "manifest.json"

// snapshots copies memory files into memory/.snapshots/<run-id>/ before the organizer changes
// them, keeping their relative paths; a file snapshotted again with other content (a second
// review of the same run) is kept beside the first as <path>.<n>.md.
type snapshots struct {
	root string // the memory folder
	now  func() time.Time
}

func (sn snapshots) dir(runID string) string { return filepath.Join(sn.root, ".snapshots", runID) }

// take snapshots the files of refs and returns the folder, relative to the memory folder.
func (sn snapshots) take(runID string, refs []EntryRef) (string, error) {
	dir := sn.dir(runID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("organizer: unable to create snapshot folder: %w", err)
	}
	man := snapshotManifest{RunID: runID, CreatedAt: sn.now()}
	if raw, err := os.ReadFile(filepath.Join(dir, manifestName)); err == nil {
		_ = json.Unmarshal(raw, &man)
	}
	for _, ref := range refs {
		data, err := os.ReadFile(filepath.Join(sn.root, filepath.FromSlash(ref.Path)))
		if errors.Is(err, os.ErrNotExist) {
			continue // gone since the scan: the store will refuse the change anyway
		}
		if err != nil {
			return "", fmt.Errorf("organizer: unable to snapshot %s: %w", ref.Path, err)
		}
		rel, err := sn.place(dir, ref.Path, data)
		if err != nil {
			return "", err
		}
		if rel == "" {
			continue // this very content is already in the snapshot
		}
		man.Files = append(man.Files, snapshotEntry{ID: ref.ID, Path: ref.Path, Version: ref.Version, File: rel, At: sn.now()})
	}
	raw, _ := json.MarshalIndent(man, "", "  ")
	if err := memory.WriteFileAtomic(filepath.Join(dir, manifestName), raw); err != nil {
		return "", err
	}
	return ".snapshots/" + runID, nil
}

// place writes data under dir at rel (or rel.<n>.md when rel holds other content) and returns
// the relative name used, or "" when identical content is already there.
func (sn snapshots) place(dir, rel string, data []byte) (string, error) {
	base := strings.TrimSuffix(rel, ".md")
	for n := 0; ; n++ {
		name := rel
		if n > 0 {
			name = base + "." + strconv.Itoa(n) + ".md"
		}
		dst := filepath.Join(dir, filepath.FromSlash(name))
		old, err := os.ReadFile(dst)
		if errors.Is(err, os.ErrNotExist) {
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return "", fmt.Errorf("organizer: unable to create snapshot folder: %w", err)
			}
			return name, memory.WriteFileAtomic(dst, data)
		}
		if err != nil {
			return "", fmt.Errorf("organizer: unable to read snapshot %s: %w", name, err)
		}
		if bytes.Equal(old, data) {
			return "", nil
		}
	}
}

// prune removes snapshot folders older than keep (by their manifest, else the folder's time).
func (sn snapshots) prune(keep time.Duration) (int, error) {
	base := filepath.Join(sn.root, ".snapshots")
	entries, err := os.ReadDir(base)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("organizer: unable to read snapshots: %w", err)
	}
	cutoff := sn.now().Add(-keep)
	n := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(base, e.Name())
		var created time.Time
		var man snapshotManifest
		if raw, err := os.ReadFile(filepath.Join(dir, manifestName)); err == nil && json.Unmarshal(raw, &man) == nil {
			created = man.CreatedAt
		} else if info, err := e.Info(); err == nil {
			created = info.ModTime()
		}
		if created.IsZero() || !created.Before(cutoff) {
			continue
		}
		if err := os.RemoveAll(dir); err != nil {
			return n, fmt.Errorf("organizer: unable to prune snapshot %s: %w", e.Name(), err)
		}
		n++
	}
	return n, nil
}
