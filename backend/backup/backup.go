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
	"errors"
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
	// Memories, Daily (the journal's live days), Archived (archived memories) and
	// ArchivedDaily (archived journal days) are the store's figures for the index in the
	// archive, those of engram quota (used, archived) and doctor: see tally. Trash and
	// Snapshots count the files in the trash and the organizer's snapshots, KVFiles the
	// agents' key files.
	Memories      int `json:"memories"`
	Daily         int `json:"daily"`
	Archived      int `json:"archived"`
	ArchivedDaily int `json:"archived_daily"`
	Trash         int `json:"trash"`
	Snapshots     int `json:"snapshots"`
	KVFiles       int `json:"kv_files"`
	// Other counts the files kept that are none of those: notes, files the store cannot read
	// as memories (doctor lists them), anything else put among the memories.
	Other     int   `json:"other"`
	Bytes     int64 `json:"bytes"`
	FileCount int   `json:"file_count"`
	// LeftOutCount counts the entries of the memory folder not archived (links, pipes); the
	// first MaxLeftOutListed are in LeftOut with the reason. Nothing is left out silently.
	LeftOutCount int       `json:"left_out_count"`
	LeftOut      []LeftOut `json:"left_out,omitempty"`
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
	if insideMemory(st.Root(), dest) {
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
		files, left, err := listFiles(st.Root())
		if err != nil {
			return err
		}
		for _, l := range left {
			noteLeftOut(&m, l)
		}
		// The store's figures, in the same hold as the index copy and the files.
		c, err := st.Counts(ctx)
		if err != nil {
			return err
		}
		counts := tally{counts: c}
		for i, rel := range files {
			if err := ctx.Err(); err != nil {
				return err
			}
			progress("files", i, len(files))
			if err := addFile(tw, &m, filepath.Join(st.Root(), filepath.FromSlash(rel)), MemoryDir+"/"+rel, time.Time{}); err != nil {
				return err
			}
			counts.add(&m, rel)
		}
		counts.finish(&m)
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
	if o.Dest == "" {
		// A name Engram chose is never put over another backup: two backups in one second
		// (a scheduled one beside a manual one, two presses) had one name, and the second
		// replaced the first.
		dest, err = placeNew(tmp, dest)
	} else {
		err = os.Rename(tmp, dest)
	}
	if err != nil {
		return Result{}, codeErr(CodeWriteFailed, coded.Reason(map[string]any{"Path": dest}, err))
	}
	syncDir(filepath.Dir(dest))
	progress("done", len(m.Files), len(m.Files))
	return Result{Path: dest, Size: info.Size(), Manifest: m}, nil
}

// placeNew moves the finished archive tmp to dest, or to dest with "-2", "-3", … before its
// extension when that name is taken, without ever replacing a file (a hard link fails on an
// existing name, where a rename would replace it). It returns the name used.
func placeNew(tmp, dest string) (string, error) {
	base := strings.TrimSuffix(dest, Ext)
	for i := 1; ; i++ {
		name := dest
		if i > 1 {
			name = fmt.Sprintf("%s-%d%s", base, i, Ext)
		}
		err := os.Link(tmp, name)
		if err == nil {
			_ = os.Remove(tmp)
			return name, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			// A file system without hard links (FAT on a stick): rename onto a free name.
			if _, serr := os.Lstat(name); !errors.Is(serr, fs.ErrNotExist) {
				if i < 1000 {
					continue
				}
				return dest, err
			}
			return name, os.Rename(tmp, name)
		}
		if i >= 1000 {
			return dest, err
		}
	}
}

// insideMemory says whether dest lies in the memory folder root, by its path or where the
// links on either side lead (the memory folder may itself be a link: listFiles walks where it
// leads, and would find the archive being written there).
func insideMemory(root, dest string) bool {
	in := func(r, d string) bool {
		rel, err := filepath.Rel(r, d)
		return err == nil && !strings.HasPrefix(rel, "..")
	}
	if in(root, dest) {
		return true
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return false
	}
	// The nearest folder of dest that exists (Create makes the rest), resolved.
	dir, rest := filepath.Dir(dest), filepath.Base(dest)
	for {
		if d, err := filepath.EvalSymlinks(dir); err == nil {
			return in(realRoot, filepath.Join(d, rest))
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir, rest = parent, filepath.Join(filepath.Base(dir), rest)
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
