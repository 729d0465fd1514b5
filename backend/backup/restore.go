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
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"engram/backend/memory"
)

// MaxManifest bounds the manifest entry read into memory.
const MaxManifest = 64 << 20

// Unpacked is an archive checked and laid out in a staging folder: Dir/memory holds the
// memory files and Dir/index.sqlite3 the index copy.
type Unpacked struct {
	Dir      string
	Manifest Manifest
	// GitConfigDropped are the keys of the archive's memory/.git/config left out because git's
	// command line would run what they name (gitconfig.go).
	GitConfigDropped []string
}

// checkName refuses any entry name that is not a plain relative path inside the archive's
// layout: absolute paths, "..", backslashes, and names outside memory/, the index and the
// manifest. It returns the cleaned name.
func checkName(name string) (string, error) {
	unsafe := codeErr(CodeUnsafeEntry, map[string]any{"Path": name})
	if name == "" || strings.HasPrefix(name, "/") || strings.Contains(name, `\`) || filepath.IsAbs(name) || strings.ContainsRune(name, 0) {
		return "", unsafe
	}
	for _, part := range strings.Split(strings.TrimSuffix(name, "/"), "/") {
		if part == ".." {
			return "", unsafe
		}
	}
	clean := path.Clean(name)
	if clean == ManifestName || clean == IndexEntry || strings.HasPrefix(clean, MemoryDir+"/") || clean == MemoryDir {
		return clean, nil
	}
	return "", unsafe
}

// Unpack checks the archive at src and extracts it into a new folder under parent (on the
// file system the restore will rename into). Every entry is checked before anything outside
// that folder is touched: names (no ../, absolute paths, links or devices), and each file's
// size and SHA-256 against the manifest, with none missing and none unlisted. On any failure
// the folder is removed and a coded error returned.
func Unpack(ctx context.Context, src, parent string, progress Progress) (u Unpacked, err error) {
	if progress == nil {
		progress = func(string, int, int) {}
	}
	f, err := os.Open(src)
	if err != nil {
		return u, codeErr(CodeNotFound, coded.Reason(map[string]any{"Path": src}, err))
	}
	defer f.Close()
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return u, codeErr(CodeWriteFailed, coded.Reason(map[string]any{"Path": parent}, err))
	}
	dir, err := os.MkdirTemp(parent, ".restore-")
	if err != nil {
		return u, codeErr(CodeWriteFailed, coded.Reason(map[string]any{"Path": parent}, err))
	}
	defer func() {
		if err != nil {
			os.RemoveAll(dir)
		}
	}()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return u, codeErr(CodeInvalidArchive, coded.Reason(map[string]any{"Path": src}, err))
	}
	tr := tar.NewReader(gz)
	got := map[string]File{}
	var manifest []byte
	for {
		if err := ctx.Err(); err != nil {
			return u, err
		}
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return u, codeErr(CodeInvalidArchive, coded.Reason(map[string]any{"Path": src}, err))
		}
		name, err := checkName(h.Name)
		if err != nil {
			return u, err
		}
		switch h.Typeflag {
		case tar.TypeDir:
			continue // folders are made for the files they hold
		case tar.TypeReg:
		default: // links, devices, fifos: never restored
			return u, codeErr(CodeUnsafeEntry, map[string]any{"Path": h.Name})
		}
		if _, dup := got[name]; dup || (name == ManifestName && manifest != nil) {
			return u, codeErr(CodeInvalidArchive, map[string]any{"Path": src, "Detail": "duplicate entry " + name, "DetailKey": "detail.duplicate_entry", "Name": name})
		}
		if name == ManifestName {
			if h.Size > MaxManifest {
				return u, codeErr(CodeInvalidArchive, map[string]any{"Path": src, "Detail": "manifest too large", "DetailKey": "detail.manifest_too_large"})
			}
			if manifest, err = io.ReadAll(io.LimitReader(tr, MaxManifest)); err != nil {
				return u, codeErr(CodeInvalidArchive, coded.Reason(map[string]any{"Path": src}, err))
			}
			continue
		}
		dst := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
			return u, codeErr(CodeWriteFailed, coded.Reason(map[string]any{"Path": dst}, err))
		}
		out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err != nil {
			return u, codeErr(CodeWriteFailed, coded.Reason(map[string]any{"Path": dst}, err))
		}
		hash := sha256.New()
		n, err := io.Copy(io.MultiWriter(out, hash), tr)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return u, codeErr(CodeInvalidArchive, coded.Reason(map[string]any{"Path": src}, err))
		}
		if !h.ModTime.IsZero() {
			_ = os.Chtimes(dst, h.ModTime, h.ModTime) // the index copy knows the files by their times
		}
		got[name] = File{Path: name, Size: n, SHA256: hex.EncodeToString(hash.Sum(nil))}
		progress("verify", len(got), 0)
	}
	if manifest == nil {
		return u, codeErr(CodeInvalidArchive, map[string]any{"Path": src, "Detail": "no " + ManifestName, "DetailKey": "detail.missing_entry", "Name": ManifestName})
	}
	if err := json.Unmarshal(manifest, &u.Manifest); err != nil || u.Manifest.Format != Format {
		detail := "not an Engram backup"
		if err != nil {
			detail = err.Error()
		}
		return u, codeErr(CodeInvalidArchive, map[string]any{"Path": src, "Detail": detail})
	}
	if u.Manifest.FormatVersion > FormatVersion {
		return u, codeErr(CodeInvalidArchive, map[string]any{"Path": src, "Detail": fmt.Sprintf("format version %d is newer than this Engram reads", u.Manifest.FormatVersion), "DetailKey": "detail.newer_format", "Version": u.Manifest.FormatVersion})
	}
	listed := map[string]bool{}
	for _, want := range u.Manifest.Files {
		if _, err := checkName(want.Path); err != nil {
			return u, err
		}
		have, ok := got[want.Path]
		if !ok || have.Size != want.Size || have.SHA256 != want.SHA256 {
			return u, codeErr(CodeChecksumMismatch, map[string]any{"Path": want.Path})
		}
		listed[want.Path] = true
	}
	for name := range got {
		if !listed[name] {
			return u, codeErr(CodeChecksumMismatch, map[string]any{"Path": name})
		}
	}
	if !listed[IndexEntry] {
		return u, codeErr(CodeInvalidArchive, map[string]any{"Path": src, "Detail": "no " + IndexEntry, "DetailKey": "detail.missing_entry", "Name": IndexEntry})
	}
	if err := os.MkdirAll(filepath.Join(dir, MemoryDir), 0o700); err != nil {
		return u, codeErr(CodeWriteFailed, coded.Reason(map[string]any{"Path": dir}, err))
	}
	dropped, err := sanitizeGitConfig(filepath.Join(dir, MemoryDir))
	if err != nil {
		return u, codeErr(CodeWriteFailed, coded.Reason(map[string]any{"Path": dir}, err))
	}
	u.GitConfigDropped = dropped
	u.Manifest.FileCount = len(u.Manifest.Files)
	u.Manifest.LeftOut = knownLeftOut(u.Manifest.LeftOut)
	u.Dir = dir
	return u, nil
}

// Preview checks an archive completely (as a restore would) and returns its manifest; the
// files it unpacked to check are removed.
func Preview(ctx context.Context, src, scratch string, progress Progress) (Manifest, error) {
	u, err := Unpack(ctx, src, scratch, progress)
	if err != nil {
		return Manifest{}, err
	}
	os.RemoveAll(u.Dir)
	return u.Manifest, nil
}

// RestoreResult says what a restore did.
type RestoreResult struct {
	Home     string   `json:"home"`
	InPlace  bool     `json:"in_place"`
	Manifest Manifest `json:"manifest"`
	// PreBackup is the backup of the state an in-place restore replaced.
	PreBackup string `json:"pre_backup,omitempty"`
	// PreLeftOut is what the pre-restore backup could not hold (links, pipes: its manifest's
	// LeftOut, PreLeftOutCount of them in all). The swap replaced every entry of the memory
	// folder, so these are gone from it: a link, not what it pointed to, which was never
	// touched. Said here so the person can put back the links they want.
	PreLeftOut      []LeftOut              `json:"pre_left_out,omitempty"`
	PreLeftOutCount int                    `json:"pre_left_out_count,omitempty"`
	Reindex         memory.ReconcileReport `json:"reindex"`
	// IndexRebuilt is set when a restore into a new home could not use the archive's index
	// copy (made by a newer Engram, whose schema this build cannot open, or damaged) and built
	// the index from the memory files instead: every memory is back, the index's own history
	// (audit log, runs, usage, settings) is not. Reason is "newer" or "unreadable".
	IndexRebuilt string `json:"index_rebuilt,omitempty"`
	// KeptHistory is set when an in-place restore kept this home's git history (keepHistory);
	// the restored files are then committed on top of it.
	KeptHistory bool `json:"kept_history,omitempty"`
	// BackupHistory is the ref (refs/backups/<when the backup was made>) holding the archive's
	// own git history, added to this home's when both had one; "" when the archive had none.
	BackupHistory string `json:"backup_history,omitempty"`
	// GitConfigDropped are the git settings of the archive's memory/.git/config that were
	// not restored, because git's command line runs what they name (core.fsmonitor,
	// filter.*, an include…): Engram writes none of them.
	GitConfigDropped []string `json:"git_config_dropped,omitempty"`
}

// RestoreNewHome restores the archive at src into home, which must hold no memories yet: the
// memory files and the index copy (with its history: audit log, runs, usage, settings) land
// there, then the home is opened once so its index is checked against the files.
func RestoreNewHome(ctx context.Context, src, home string, progress Progress) (_ RestoreResult, err error) {
	if progress == nil {
		progress = func(string, int, int) {}
	}
	home, err = filepath.Abs(home)
	if err != nil {
		return RestoreResult{}, codeErr(CodeWriteFailed, coded.Reason(map[string]any{"Path": home}, err))
	}
	// A refused archive says nothing was touched: a home folder this restore made goes too.
	if _, serr := os.Lstat(home); errors.Is(serr, fs.ErrNotExist) {
		defer func() {
			if err != nil {
				os.RemoveAll(home)
			}
		}()
	}
	root := filepath.Join(home, MemoryDir)
	if entries, err := os.ReadDir(root); err == nil && len(entries) > 0 {
		return RestoreResult{}, codeErr(CodeTargetNotEmpty, map[string]any{"Path": root})
	}
	u, err := Unpack(ctx, src, home, progress)
	if err != nil {
		return RestoreResult{}, err
	}
	defer os.RemoveAll(u.Dir)
	_ = os.Remove(root) // an empty memory folder left by an earlier open
	if err := os.Rename(filepath.Join(u.Dir, MemoryDir), root); err != nil {
		return RestoreResult{}, codeErr(CodeWriteFailed, coded.Reason(map[string]any{"Path": root}, err))
	}
	if err := os.Rename(filepath.Join(u.Dir, IndexEntry), filepath.Join(root, IndexEntry)); err != nil {
		return RestoreResult{}, codeErr(CodeWriteFailed, coded.Reason(map[string]any{"Path": root}, err))
	}
	syncDir(root)
	progress("reconcile", 0, 0)
	// The store's warnings (a file it cannot index) went to stderr in English: the result
	// counts those files instead, in the person's language, and doctor lists them.
	res := RestoreResult{Home: home, Manifest: u.Manifest, GitConfigDropped: u.GitConfigDropped}
	opts := memory.Options{Logger: slog.New(slog.DiscardHandler)}
	st, err := memory.Open(ctx, home, opts)
	if err != nil {
		// The memory files are the record; an index copy this build cannot open (a backup
		// from a newer Engram refused the whole restore with "schema v24 is newer … upgrade",
		// in English) must not keep them out: it is set aside and the index built from them.
		res.IndexRebuilt = "unreadable"
		if u.Manifest.SchemaVersion > memory.SchemaVersion() {
			res.IndexRebuilt = "newer"
		}
		for _, suffix := range []string{"", "-wal", "-shm"} {
			_ = os.Remove(filepath.Join(root, IndexEntry+suffix))
		}
		if st, err = memory.Open(ctx, home, opts); err != nil {
			return RestoreResult{}, err
		}
	}
	// Open reconciled the index with the restored files already.
	problems, perr := st.Problems(ctx)
	if err := st.Close(); err != nil {
		return RestoreResult{}, err
	}
	if perr != nil {
		return RestoreResult{}, perr
	}
	res.Reindex = memory.ReconcileReport{Problems: len(problems)}
	return res, nil
}

// RestoreInPlace replaces st's files with the archive's, after checking the archive and
// backing up the current state (PreBackup). The swap and the rebuild of the index from the
// restored files happen inside the store's cross-process lock; the index's own history
// (audit log, runs, usage, settings) is kept, and is in the pre-restore backup too. Links in
// the memory folder, which no backup holds, go with the replaced files: PreLeftOut names them.
func RestoreInPlace(ctx context.Context, st *memory.Store, src, appVersion string, progress Progress) (RestoreResult, error) {
	if progress == nil {
		progress = func(string, int, int) {}
	}
	u, err := Unpack(ctx, src, st.Home(), progress)
	if err != nil {
		return RestoreResult{}, err
	}
	defer os.RemoveAll(u.Dir)
	aside, err := os.MkdirTemp(st.Home(), ".restore-old-")
	if err != nil {
		return RestoreResult{}, codeErr(CodeWriteFailed, coded.Reason(map[string]any{"Path": st.Home()}, err))
	}
	var pre Result
	var rep memory.ReconcileReport
	var kept bool
	var backupRef string
	// One hold of the store's lock: no write lands between the backup of the current state
	// and the swap, so nothing acknowledged is lost.
	err = st.Exclusive(ctx, func(x *memory.Exclusive) error {
		var err error
		pre, err = create(ctx, st, x.Snapshot, Options{AppVersion: appVersion, Prefix: PrePrefix, Progress: func(phase string, d, t int) {
			progress("pre_backup", d, t)
		}})
		if err != nil {
			return err
		}
		if kept, backupRef, err = keepHistory(st.Root(), filepath.Join(u.Dir, MemoryDir), refStamp(u.Manifest.Created)); err != nil {
			return codeErr(CodeWriteFailed, coded.Reason(map[string]any{"Path": st.Root()}, err))
		}
		progress("swap", 0, 0)
		rep, err = x.ReplaceFiles(ctx, filepath.Join(u.Dir, MemoryDir), aside)
		return err
	})
	if err != nil {
		// aside is kept unless empty: it holds whatever a failed rollback could not move back.
		_ = os.Remove(aside)
		return RestoreResult{PreBackup: pre.Path}, err
	}
	os.RemoveAll(aside)
	progress("done", 1, 1)
	return RestoreResult{Home: st.Home(), InPlace: true, Manifest: u.Manifest, PreBackup: pre.Path,
		PreLeftOut: pre.Manifest.LeftOut, PreLeftOutCount: pre.Manifest.LeftOutCount, Reindex: rep, KeptHistory: kept, BackupHistory: backupRef, GitConfigDropped: u.GitConfigDropped}, nil
}

// refStamp names the ref of a restored backup's history by when the backup was made
// (20261207T031000Z), or by now when the manifest does not say.
func refStamp(created string) string {
	t, err := time.Parse(time.RFC3339, created)
	if err != nil {
		t = time.Now()
	}
	return t.UTC().Format("20060102T150405Z")
}
