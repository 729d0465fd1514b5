package history

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// wholePacks is a repository's storage whose packfiles land whole. go-git's own pack writer
// creates the index (pack-<sum>.idx) under its final name and writes it there, and a later
// write of the same pack keeps an index that exists: a process killed while writing one left an
// empty index that go-git reads with every packfile before any object, so the whole repository
// — this home's history, or a folder remote every machine syncs with — answered EOF to every
// read, for good (the faults suite's kill-git-sync found one in about ten runs). Here the pack
// and its index are written to temporary files in objects/pack and renamed into place, the
// index first (a reader lists packs by their .pack file, git by the index with its pack), so a
// kill leaves either nothing new or a whole pack; an index already there is replaced.
type wholePacks struct {
	*filesystem.Storage
	dir string // objects/pack
}

// withWholePacks has the repository write packfiles through wholePacks (a fetch, a copy to or
// from a folder remote). A storage that is not a folder's is left as it is.
func withWholePacks(repo *git.Repository, gitDir string) *git.Repository {
	if fs, ok := repo.Storer.(*filesystem.Storage); ok {
		repo.Storer = &wholePacks{Storage: fs, dir: filepath.Join(gitDir, "objects", "pack")}
	}
	return repo
}

// PackfileWriter takes a packfile whole (storer.PackfileWriter).
func (s *wholePacks) PackfileWriter() (io.WriteCloser, error) {
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return nil, fmt.Errorf("history: unable to write a packfile: %w", err)
	}
	f, err := os.CreateTemp(s.dir, "tmp_pack_engram_")
	if err != nil {
		return nil, fmt.Errorf("history: unable to write a packfile: %w", err)
	}
	return &packWriter{s: s, f: f}, nil
}

type packWriter struct {
	s *wholePacks
	f *os.File
}

func (w *packWriter) Write(p []byte) (int, error) { return w.f.Write(p) }

// Close reads the pack back to build its index, and puts both in place.
func (w *packWriter) Close() error {
	tmp := w.f.Name()
	idxTmp := ""
	fail := func(err error) error {
		w.f.Close()
		_ = os.Remove(tmp)
		if idxTmp != "" {
			_ = os.Remove(idxTmp)
		}
		return fmt.Errorf("history: unable to write a packfile: %w", err)
	}
	if info, err := w.f.Stat(); err == nil && info.Size() == 0 { // nothing was sent
		w.f.Close()
		return os.Remove(tmp)
	}
	if _, err := w.f.Seek(0, io.SeekStart); err != nil {
		return fail(err)
	}
	iw := new(idxfile.Writer)
	parser, err := packfile.NewParser(packfile.NewScanner(w.f), iw)
	if err != nil {
		return fail(err)
	}
	sum, err := parser.Parse()
	if err != nil {
		return fail(err)
	}
	idx, err := iw.Index()
	if err != nil {
		return fail(err)
	}
	if err := w.f.Sync(); err != nil {
		return fail(err)
	}
	idxFile, err := os.CreateTemp(w.s.dir, "tmp_idx_engram_")
	if err != nil {
		return fail(err)
	}
	idxTmp = idxFile.Name()
	_, err = idxfile.NewEncoder(idxFile).Encode(idx)
	if err == nil {
		err = idxFile.Sync()
	}
	if cerr := idxFile.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fail(err)
	}
	base := filepath.Join(w.s.dir, "pack-"+sum.String())
	if err := os.Rename(idxTmp, base+".idx"); err != nil {
		return fail(err)
	}
	idxTmp = ""
	if err := os.Rename(tmp, base+".pack"); err != nil {
		return fail(err)
	}
	if err := w.f.Close(); err != nil {
		return fmt.Errorf("history: unable to write a packfile: %w", err)
	}
	_ = os.Chmod(base+".idx", 0o444)
	_ = os.Chmod(base+".pack", 0o444)
	w.s.Reindex() // the storage read its pack indexes once: this one joins them
	return nil
}
