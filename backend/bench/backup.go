//go:build bench

package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"engram/backend/backup"
	"engram/backend/memory"
)

// BackupFigures are the costs of a whole-home backup and of its restore into a new home at
// one store size (issue 15).
type BackupFigures struct {
	N            int     `json:"n"`
	BackupSec    float64 `json:"backup_sec"`
	ArchiveMiB   float64 `json:"archive_mib"`
	PreviewSec   float64 `json:"preview_sec"`
	RestoreSec   float64 `json:"restore_sec"` // unpack + verify + rename + open + reconcile
	RestoredLive int     `json:"restored_live"`
	// ImportSec is a JSONL import of the home's export into a new home (checks, dedupe, quota,
	// writes through apply_batch); Imported and ImportErrors are its lines' outcomes.
	ImportSec    float64 `json:"import_sec"`
	Imported     int     `json:"imported"`
	ImportErrors int     `json:"import_errors"`
}

// ImportPerSec is the import throughput in memories a second.
func (f BackupFigures) ImportPerSec() float64 {
	if f.ImportSec <= 0 {
		return 0
	}
	return float64(f.Imported) / f.ImportSec
}

// RunBackup generates n memory files, indexes them, backs the home up, checks the archive,
// restores it into a new home and imports its JSONL export into another, timing each step.
func RunBackup(ctx context.Context, n int, progress io.Writer) (BackupFigures, error) {
	f := BackupFigures{N: n}
	tmp, err := os.MkdirTemp("", "engram-bench-backup-")
	if err != nil {
		return f, err
	}
	defer os.RemoveAll(tmp)
	home := filepath.Join(tmp, "home")
	say := func(format string, a ...any) {
		if progress != nil {
			fmt.Fprintf(progress, "  [%d] "+format+"\n", append([]any{n}, a...)...)
		}
	}
	say("generating %d memory files", n)
	r := rand.New(rand.NewPCG(uint64(n), 7))
	if _, err := generate(home, n, r, newVocab(r)); err != nil {
		return f, err
	}
	st, err := memory.Open(ctx, home, memory.Options{})
	if err != nil {
		return f, err
	}
	defer st.Close()
	say("backup")
	t0 := time.Now()
	res, err := backup.Create(ctx, st, backup.Options{Dest: filepath.Join(tmp, "b.tar.gz"), AppVersion: "bench"})
	if err != nil {
		return f, err
	}
	f.BackupSec = time.Since(t0).Seconds()
	f.ArchiveMiB = float64(res.Size) / (1 << 20)
	say("preview (verify every checksum)")
	t0 = time.Now()
	if _, err := backup.Preview(ctx, res.Path, tmp, nil); err != nil {
		return f, err
	}
	f.PreviewSec = time.Since(t0).Seconds()
	say("restore into a new home")
	t0 = time.Now()
	rr, err := backup.RestoreNewHome(ctx, res.Path, filepath.Join(tmp, "restored"), nil)
	if err != nil {
		return f, err
	}
	f.RestoreSec = time.Since(t0).Seconds()
	f.RestoredLive = rr.Manifest.Memories
	say("export as JSONL, import into a new home")
	var jsonl bytes.Buffer
	if _, err := st.Export(ctx, &jsonl, memory.Filter{}); err != nil {
		return f, err
	}
	dst, err := memory.Open(ctx, filepath.Join(tmp, "imported"), memory.Options{})
	if err != nil {
		return f, err
	}
	defer dst.Close()
	t0 = time.Now()
	rep, err := dst.Import(ctx, &jsonl)
	if err != nil {
		return f, err
	}
	f.ImportSec = time.Since(t0).Seconds()
	f.Imported, f.ImportErrors = rep.Imported+rep.Daily, len(rep.Errors)
	return f, nil
}

// PrintBackup writes the backup figures.
func PrintBackup(w io.Writer, figs []BackupFigures, asJSON bool) {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(figs)
		return
	}
	fmt.Fprintln(w, "backup and restore (tar.gz: files + VACUUM INTO index copy + manifest)")
	fmt.Fprintf(w, "  %9s %10s %10s %11s %11s %10s %12s %8s\n", "memories", "backup s", "MiB", "preview s", "restore s", "import s", "imported/s", "errors")
	for _, f := range figs {
		fmt.Fprintf(w, "  %9d %10.2f %10.1f %11.2f %11.2f %10.2f %12.0f %8d\n", f.N, f.BackupSec, f.ArchiveMiB, f.PreviewSec, f.RestoreSec,
			f.ImportSec, f.ImportPerSec(), f.ImportErrors)
	}
}
