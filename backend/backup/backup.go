// Package backup writes and restores whole-home archives (issue 15): one tar.gz holding the
// memory folder (Markdown files, agents' kv.json files, trash, snapshots, archives), a
// consistent copy of the SQLite index taken with VACUUM INTO while the app runs, and a
// manifest with counts and a SHA-256 of every entry. It also prunes old backups and runs the
// schedule. It reads the store only through memory's exported methods.
package backup

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"engram/backend/coded"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"engram/backend/memory"
)

// Archive layout: ManifestName is the last entry (it holds the checksums of the others),
// IndexEntry the index copy, and every memory file is under MemoryDir/.
const (
	ManifestName  = "manifest.json"
	IndexEntry    = "index.sqlite3"
	MemoryDir     = "memory"
	Format        = "engram-backup"
	FormatVersion = 1
	// Ext is the backup files' extension; Prefix starts the names of backups Engram names.
	Ext       = ".tar.gz"
	Prefix    = "engram-backup-"
	PrePrefix = "engram-pre-restore-"
	// Folder is where backups go by default, under the home (outside the memory folder).
	Folder = "backups"
)

// File is one archived file: its path in the archive, size and SHA-256.
type File struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// Manifest describes a backup; restore checks every entry against it before touching anything.
type Manifest struct {
	Format        string `json:"format"`
	FormatVersion int    `json:"format_version"`
	AppVersion    string `json:"app_version"`
	SchemaVersion int    `json:"schema_version"`
	Created       string `json:"created"`
	Memories      int    `json:"memories"`
	Daily         int    `json:"daily"`
	Archived      int    `json:"archived"`
	Trash         int    `json:"trash"`
	KVFiles       int    `json:"kv_files"`
	Bytes         int64  `json:"bytes"`
	FileCount     int    `json:"file_count"`
	// Files lists every entry with its checksum (left out of api results: it can be long).
	Files []File `json:"files,omitempty"`
}

// Progress hears how far a backup or restore is: phase, done of total (0 when unknown).
type Progress func(phase string, done, total int)

// Options tune Create.
type Options struct {
	// Dest is the archive to write; "" names one under <home>/backups.
	Dest       string
	AppVersion string
	Progress   Progress
	// Prefix names the default file (Prefix or PrePrefix); "" is Prefix.
	Prefix string
}

// Result is a written backup.
type Result struct {
	Path     string   `json:"path"`
	Size     int64    `json:"size"`
	Manifest Manifest `json:"manifest"`
}

// DefaultDir is the backups folder of a home.
func DefaultDir(home string) string { return filepath.Join(home, Folder) }

// Create writes a backup of st. The archive is written beside its destination and renamed
// into place once complete, so a crash never leaves a half archive under the final name.
func Create(ctx context.Context, st *memory.Store, o Options) (Result, error) {
	return create(ctx, st, st.Snapshot, o)
}

// create is Create with the snapshot taken by snap: the store's (which takes its lock) or an
// Exclusive hold's (an in-place restore already holds it).
func create(ctx context.Context, st *memory.Store, snap func(ctx context.Context, indexDst string, files func() error) error, o Options) (Result, error) {
	progress := o.Progress
	if progress == nil {
		progress = func(string, int, int) {}
	}
	now := st.Now().UTC()
	dest := o.Dest
	if dest == "" {
		prefix := o.Prefix
		if prefix == "" {
			prefix = Prefix
		}
		dest = filepath.Join(DefaultDir(st.Home()), prefix+now.Format("20060102T150405Z")+Ext)
	}
	dest, err := filepath.Abs(dest)
	if err != nil {
		return Result{}, fmt.Errorf("backup: unable to resolve %s: %w", dest, err)
	}
	if rel, err := filepath.Rel(st.Root(), dest); err == nil && !strings.HasPrefix(rel, "..") {
		return Result{}, codeErr(CodeDestInsideMemory, map[string]any{"Path": dest})
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o700); err != nil {
		return Result{}, codeErr(CodeWriteFailed, coded.Reason(map[string]any{"Path": dest}, err))
	}
	sweepWork(filepath.Dir(dest), time.Now(), filepath.Dir(dest) == filepath.Clean(DefaultDir(st.Home())))
	work, err := os.MkdirTemp(filepath.Dir(dest), workPrefix)
	if err != nil {
		return Result{}, codeErr(CodeWriteFailed, coded.Reason(map[string]any{"Path": dest}, err))
	}
	defer os.RemoveAll(work)
	if err := markWork(work); err != nil {
		return Result{}, codeErr(CodeWriteFailed, coded.Reason(map[string]any{"Path": dest}, err))
	}
	tmp := filepath.Join(work, "archive"+Ext)
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return Result{}, codeErr(CodeWriteFailed, coded.Reason(map[string]any{"Path": dest}, err))
	}
	defer f.Close()
	gz, _ := gzip.NewWriterLevel(f, gzip.BestSpeed) // Markdown still shrinks well; backups run while you work
	tw := tar.NewWriter(gz)
	m := Manifest{Format: Format, FormatVersion: FormatVersion, AppVersion: o.AppVersion,
		SchemaVersion: memory.SchemaVersion(), Created: now.Format(time.RFC3339), Files: []File{}}
	idx := filepath.Join(work, IndexEntry)
	progress("index", 0, 0)
	err = snap(ctx, idx, func() error {
		if err := addFile(tw, &m, idx, IndexEntry, now); err != nil {
			return err
		}
		files, err := listFiles(st.Root())
		if err != nil {
			return err
		}
		for i, rel := range files {
			if err := ctx.Err(); err != nil {
				return err
			}
			progress("files", i, len(files))
			if err := addFile(tw, &m, filepath.Join(st.Root(), filepath.FromSlash(rel)), MemoryDir+"/"+rel, time.Time{}); err != nil {
				return err
			}
			count(&m, rel)
		}
		progress("files", len(files), len(files))
		return nil
	})
	if err != nil {
		return Result{}, err
	}
	m.FileCount = len(m.Files)
	data, _ := json.MarshalIndent(m, "", "  ")
	if err := tw.WriteHeader(&tar.Header{Name: ManifestName, Mode: 0o600, Size: int64(len(data)), ModTime: now, Typeflag: tar.TypeReg}); err != nil {
		return Result{}, codeErr(CodeWriteFailed, coded.Reason(map[string]any{"Path": dest}, err))
	}
	if _, err := tw.Write(data); err != nil {
		return Result{}, codeErr(CodeWriteFailed, coded.Reason(map[string]any{"Path": dest}, err))
	}
	for _, c := range []io.Closer{tw, gz} {
		if err := c.Close(); err != nil {
			return Result{}, codeErr(CodeWriteFailed, coded.Reason(map[string]any{"Path": dest}, err))
		}
	}
	if err := f.Sync(); err != nil {
		return Result{}, codeErr(CodeWriteFailed, coded.Reason(map[string]any{"Path": dest}, err))
	}
	info, _ := f.Stat()
	f.Close()
	if err := os.Rename(tmp, dest); err != nil {
		return Result{}, codeErr(CodeWriteFailed, coded.Reason(map[string]any{"Path": dest}, err))
	}
	syncDir(filepath.Dir(dest))
	progress("done", len(m.Files), len(m.Files))
	return Result{Path: dest, Size: info.Size(), Manifest: m}, nil
}

// listFiles lists the regular files under root, sorted, as slash paths: everything but the
// index (copied consistently instead), the locks, the watcher's own files (.watch.lock,
// .watch-sync-*: this machine's running state) and interrupted writes. Links are skipped,
// never followed.
func listFiles(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if p != root && d.IsDir() && strings.HasPrefix(name, ".tmp-") {
			return fs.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if strings.HasPrefix(name, IndexEntry) || name == ".lock" || strings.HasPrefix(name, ".tmp-") ||
			(filepath.Dir(p) == root && strings.HasPrefix(name, ".watch")) {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("backup: unable to list %s: %w", root, err)
	}
	return out, nil
}

// count adds rel (a path under the memory folder) to the manifest's counts.
func count(m *Manifest, rel string) {
	switch {
	case strings.HasPrefix(rel, ".trash/"):
		m.Trash++
	case strings.HasPrefix(rel, ".archive/"):
		if strings.HasSuffix(rel, ".md") {
			m.Archived++
		}
	case strings.HasPrefix(rel, ".snapshots/"):
	case strings.HasSuffix(rel, "/"+memory.KVFileName):
		m.KVFiles++
	case strings.HasPrefix(rel, "daily/"):
		m.Daily++
	case strings.HasSuffix(rel, ".md"):
		m.Memories++
	}
}

// addFile streams the file at abs into the archive as name, hashing it on the way.
func addFile(tw *tar.Writer, m *Manifest, abs, name string, mod time.Time) error {
	f, err := os.Open(abs)
	if err != nil {
		return fmt.Errorf("backup: unable to read %s: %w", abs, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return fmt.Errorf("backup: unable to read %s: %w", abs, err)
	}
	if mod.IsZero() {
		mod = info.ModTime()
	}
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: info.Size(), ModTime: mod, Typeflag: tar.TypeReg}); err != nil {
		return fmt.Errorf("backup: unable to write %s: %w", name, err)
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tw, h), io.LimitReader(f, info.Size()))
	if err != nil {
		return fmt.Errorf("backup: unable to write %s: %w", name, err)
	}
	if n != info.Size() {
		return fmt.Errorf("backup: %s shrank while it was read", abs)
	}
	m.Files = append(m.Files, File{Path: name, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))})
	m.Bytes += n
	return nil
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
