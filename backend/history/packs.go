package history

import (
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
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
// kill leaves either nothing new or a whole pack; an index already there is replaced. An index
// an older build left damaged is rebuilt from its pack when the repository opens
// (repairPackIndexes).
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

// repairPackIndexes rebuilds the index of every pack in packDir whose index is missing or not
// whole — what go-git's writer left when killed before this build (see wholePacks): a whole
// index ends with its pack's checksum (then its own), written last. A pack that does not parse
// to its name is left alone. Called when a repository is opened; it reads 40 bytes an index.
func repairPackIndexes(packDir string) (repaired int, err error) {
	packs, _ := filepath.Glob(filepath.Join(packDir, "pack-*.pack"))
	for _, pack := range packs {
		sum := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(pack), "pack-"), ".pack")
		want, ok := decodeHash(sum)
		if !ok || indexWhole(strings.TrimSuffix(pack, ".pack")+".idx", want) {
			continue
		}
		if err := rebuildIndex(packDir, pack, want); err != nil {
			return repaired, fmt.Errorf("history: unable to rebuild the index of %s: %w", filepath.Base(pack), err)
		}
		repaired++
	}
	return repaired, nil
}

// minIndexSize is a version 2 pack index of no object: header, fan-out table, trailer.
const minIndexSize = 8 + 256*4 + 2*20

// indexWhole reports whether the index at path ends with the pack checksum sum.
func indexWhole(path string, sum []byte) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || info.Size() < minIndexSize {
		return false
	}
	tail := make([]byte, 20)
	if _, err := f.ReadAt(tail, info.Size()-40); err != nil {
		return false
	}
	return string(tail) == string(sum)
}

func decodeHash(s string) ([]byte, bool) {
	b, err := hex.DecodeString(s)
	return b, err == nil && len(b) == 20
}

// rebuildIndex parses the pack and writes its index anew through a temporary file.
func rebuildIndex(packDir, pack string, want []byte) error {
	f, err := os.Open(pack)
	if err != nil {
		return err
	}
	defer f.Close()
	sum, idx, err := indexPack(f)
	if err != nil {
		return err
	}
	if string(sum[:]) != string(want) {
		return fmt.Errorf("its contents are pack %s", sum)
	}
	return writeIndex(packDir, strings.TrimSuffix(pack, ".pack")+".idx", idx)
}

// indexPack reads a whole pack from its start and returns its checksum and index.
func indexPack(r io.Reader) (plumbing.Hash, *idxfile.MemoryIndex, error) {
	iw := new(idxfile.Writer)
	parser, err := packfile.NewParser(packfile.NewScanner(r), iw)
	if err != nil {
		return plumbing.ZeroHash, nil, err
	}
	sum, err := parser.Parse()
	if err != nil {
		return plumbing.ZeroHash, nil, err
	}
	idx, err := iw.Index()
	return sum, idx, err
}

// writeIndex writes idx at path through a temporary file in packDir renamed into place.
func writeIndex(packDir, path string, idx *idxfile.MemoryIndex) error {
	tmp, err := os.CreateTemp(packDir, "tmp_idx_engram_")
	if err != nil {
		return err
	}
	_, err = idxfile.NewEncoder(tmp).Encode(idx)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	_ = os.Chmod(path, 0o444)
	return nil
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
	fail := func(err error) error {
		w.f.Close()
		_ = os.Remove(tmp)
		return fmt.Errorf("history: unable to write a packfile: %w", err)
	}
	if info, err := w.f.Stat(); err == nil && info.Size() == 0 { // nothing was sent
		w.f.Close()
		return os.Remove(tmp)
	}
	if _, err := w.f.Seek(0, io.SeekStart); err != nil {
		return fail(err)
	}
	sum, idx, err := indexPack(w.f)
	if err != nil {
		return fail(err)
	}
	if err := w.f.Sync(); err != nil {
		return fail(err)
	}
	base := filepath.Join(w.s.dir, "pack-"+sum.String())
	if err := writeIndex(w.s.dir, base+".idx", idx); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp, base+".pack"); err != nil {
		return fail(err)
	}
	if err := w.f.Close(); err != nil {
		return fmt.Errorf("history: unable to write a packfile: %w", err)
	}
	_ = os.Chmod(base+".pack", 0o444)
	w.s.Reindex() // the storage read its pack indexes once: this one joins them
	return nil
}
