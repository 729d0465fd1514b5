package history

import (
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

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
// to its name is left alone. Called when a repository is opened; it reads every index whole (see indexWhole).
func repairPackIndexes(packDir string) (repaired int, err error) {
	dropStaleTemps(packDir)
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

// dropStaleTemps removes the temporary packs and indexes a process killed while writing them
// left in packDir (the size of a whole history, for a first sync), once they are clearly not
// being written: an hour old. Another machine's sync to a shared folder may be writing one.
func dropStaleTemps(packDir string) {
	for _, prefix := range []string{packTempPrefix, idxTempPrefix} {
		names, _ := filepath.Glob(filepath.Join(packDir, prefix+"*"))
		for _, name := range names {
			if info, err := os.Lstat(name); err == nil && info.Mode().IsRegular() && time.Since(info.ModTime()) > time.Hour {
				_ = os.Remove(name)
			}
		}
	}
}

// The temporary files a pack and its index are written to before their rename.
const (
	packTempPrefix = "tmp_pack_engram_"
	idxTempPrefix  = "tmp_idx_engram_"
)

// minIndexSize is a version 2 pack index of no object: header, fan-out table, trailer.
const minIndexSize = 8 + 256*4 + 2*20

// indexWhole reports whether the index at path ends with the pack checksum sum and its own
// checksum holds: go-git refuses an index whose checksum does not, so one damaged anywhere
// (a bad sector, a bit flipped) is rebuilt from its pack as a cut one is. The whole index is
// read, once per open of the repository: about 28 bytes an object.
func indexWhole(path string, sum []byte) bool {
	data, err := os.ReadFile(path)
	if err != nil || len(data) < minIndexSize {
		return false
	}
	n := len(data)
	if string(data[n-40:n-20]) != string(sum) {
		return false
	}
	own := sha1.Sum(data[:n-20])
	return string(own[:]) == string(data[n-20:])
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

// indexPack reads a whole pack from its start and returns its checksum and index. The count
// of objects its header declares is checked against its size first: go-git's index writer
// makes room for that many entries at once, and a damaged or hostile header (a fetch's pack
// comes from the network, a folder remote's from anyone with the folder) asking for four
// billion crashed the process — out of memory is fatal, not a panic — at every open.
func indexPack(f *os.File) (plumbing.Hash, *idxfile.MemoryIndex, error) {
	if err := packCountFits(f); err != nil {
		return plumbing.ZeroHash, nil, err
	}
	iw := new(idxfile.Writer)
	parser, err := packfile.NewParser(packfile.NewScanner(f), iw)
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

// minPackEntry is the fewest bytes one object takes in a pack: a one-byte type and size, and
// the smallest zlib stream (8 bytes, for nothing).
const minPackEntry = 9

// packCountFits reads the pack's header at its start (and seeks back) and refuses a pack
// that declares more objects than its size can hold.
func packCountFits(f *os.File) error {
	info, err := f.Stat()
	if err != nil {
		return err
	}
	head := make([]byte, 12)
	if _, err := f.ReadAt(head, 0); err != nil {
		return fmt.Errorf("not a packfile: %w", err)
	}
	if string(head[:4]) != "PACK" {
		return fmt.Errorf("not a packfile")
	}
	count := int64(binary.BigEndian.Uint32(head[8:]))
	if room := (info.Size() - 12 - 20) / minPackEntry; count > room {
		return fmt.Errorf("the packfile declares %d objects in %d bytes", count, info.Size())
	}
	_, err = f.Seek(0, io.SeekStart)
	return err
}

// writeIndex writes idx at path through a temporary file in packDir renamed into place.
func writeIndex(packDir, path string, idx *idxfile.MemoryIndex) error {
	tmp, err := os.CreateTemp(packDir, idxTempPrefix)
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
	return syncPath(packDir)
}

// PackfileWriter takes a packfile whole (storer.PackfileWriter).
func (s *wholePacks) PackfileWriter() (io.WriteCloser, error) {
	// Only the pack folder is made, never the repository around it: a .git moved away
	// meanwhile (a restore in place) must not be made again holding only this pack.
	if err := os.Mkdir(s.dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("history: unable to write a packfile: %w", err)
	}
	f, err := os.CreateTemp(s.dir, packTempPrefix)
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
	// The pack's name on disk before anything names its objects: a branch moved next (here
	// or on a folder remote) must not outlive its pack through a power cut on a file system
	// that writes two folders' changes in any order (FAT on a USB disk).
	if err := syncPath(w.s.dir); err != nil {
		return fmt.Errorf("history: unable to write a packfile: %w", err)
	}
	w.s.Reindex() // the storage read its pack indexes once: this one joins them
	return nil
}
