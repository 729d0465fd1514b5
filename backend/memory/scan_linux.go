//go:build linux

package memory

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// scan lists what walk lists (the same files, links and temp files, in the same order) for
// every full reconcile, at open above all: a one-shot CLI pays for it on every call when no
// watcher answers for the index. It reads each folder once with getdents and stats its entries
// relative to the open folder, several folders at a time. The stat cannot be skipped: only ctime
// tells an in-place edit that put size and mtime back.
//
// At 100k memories the stats are most of it, so the rest is kept small: each name is stat'ed
// straight from the getdents buffer (statx on the NUL-terminated name, no string made for the
// call), a folder's paths are cut from one string, and each folder's entries are sorted on their
// own and stitched together in path order (a folder's paths are one contiguous run of the
// sorted list, its name followed by "/"), instead of sorting the 100k paths at the end.
func (s *Store) scan() ([]diskFile, []string, error) {
	if l, ok := s.takeListed(); ok {
		return l.disk, l.temps, nil
	}
	return s.scanFolders(true)
}

// scanFolders is scan; withStatx false stats with fstatat from the start, as a scan does once
// the kernel refused statx.
func (s *Store) scanFolders(withStatx bool) ([]diskFile, []string, error) {
	rootFD, err := unix.Open(s.root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return s.walk() // the walk reports the error as it always has
	}
	sc := &folderScan{s: s, sem: make(chan struct{}, max(2, runtime.GOMAXPROCS(0))),
		bufs: sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}}
	sc.noStatx.Store(!withStatx)
	root := &scannedDir{}
	sc.visit(rootFD, "", root)
	sc.wg.Wait()
	files := make([]diskFile, 0, sc.files.Load())
	var temps []string
	files, temps = root.flatten(files, temps)
	slices.Sort(temps)
	return files, temps, nil
}

// folderScan is one scan in progress: its goroutines and what they found.
type folderScan struct {
	s     *Store
	sem   chan struct{}
	wg    sync.WaitGroup
	files atomic.Int64
	// bufs holds getdents buffers: a folder is done with its buffer before its subfolders
	// are read, so a scan needs about one per goroutine, not one per folder.
	bufs sync.Pool
	// noStatx is set once the kernel refused statx (ENOSYS: an old kernel or a seccomp
	// filter): the scan stats with fstatat from then on.
	noStatx atomic.Bool
}

// scannedDir is one folder's share of the listing: its files and links sorted by path, its
// subfolders sorted by path plus "/" (each a contiguous run of the whole sorted list).
type scannedDir struct {
	key   string // rel + "/": where the folder's run starts in path order
	files []diskFile
	subs  []*scannedDir
	temps []string
}

// flatten appends d's listing in path order: its files interleaved with its subfolders' runs.
func (d *scannedDir) flatten(files []diskFile, temps []string) ([]diskFile, []string) {
	temps = append(temps, d.temps...)
	i := 0
	for _, sub := range d.subs {
		for i < len(d.files) && d.files[i].rel < sub.key {
			files = append(files, d.files[i])
			i++
		}
		files, temps = sub.flatten(files, temps)
	}
	return append(files, d.files[i:]...), temps
}

// visit reads one open folder (rel to the root, "" for the root) into out and closes fd; its
// subfolders run on other goroutines while the semaphore allows, inline otherwise.
func (sc *folderScan) visit(fd int, rel string, out *scannedDir) {
	defer unix.Close(fd)
	s := sc.s
	prefix := ""
	if rel != "" {
		prefix = rel + "/"
	}
	// The folder's paths are built in one buffer and cut from one string at the end.
	var (
		arena    []byte
		fileEnds []int
		found    []diskFile
		subNames []string
	)
	bp := sc.bufs.Get().(*[]byte)
	buf := *bp
	for {
		n, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			s.log.Warn("memory: unable to read", "path", filepath.Join(s.root, rel), "err", err)
			break
		}
		if n <= 0 {
			break
		}
		if found == nil {
			// A record takes at least 24 bytes: room for every entry of a folder that fits one
			// buffer, without growing the slices entry by entry.
			found = make([]diskFile, 0, n/24)
			fileEnds = make([]int, 0, n/24)
			arena = make([]byte, 0, n+len(prefix)*(n/24))
		}
		for off := 0; off < n; {
			reclen := int(*(*uint16)(unsafe.Pointer(&buf[off+16])))
			typ := buf[off+18]
			nameAt := off + 19
			nameBytes := buf[nameAt : off+reclen]
			if i := indexZero(nameBytes); i >= 0 {
				nameBytes = nameBytes[:i]
			}
			off += reclen
			if len(nameBytes) == 0 || (nameBytes[0] == '.' && (len(nameBytes) == 1 || (len(nameBytes) == 2 && nameBytes[1] == '.'))) {
				continue
			}
			var st fileStamp
			var mode uint32
			statted := false
			stat := func() bool {
				if !statted {
					var ok bool
					st, mode, ok = sc.statAt(fd, &buf[nameAt], nameBytes)
					if !ok {
						return false
					}
					statted = true
				}
				return true
			}
			if typ == unix.DT_UNKNOWN {
				if !stat() {
					continue
				}
				typ = dtOfMode(mode)
			}
			switch typ {
			case unix.DT_LNK:
				// Never followed, wherever it points; listed so the person sees why.
				if stat() {
					arena = append(append(arena, prefix...), nameBytes...)
					fileEnds = append(fileEnds, len(arena))
					found = append(found, diskFile{st: st, link: true})
				}
			case unix.DT_DIR:
				if nameBytes[0] == '.' && !(rel == "" && string(nameBytes) == ".archive") {
					continue
				}
				subNames = append(subNames, string(nameBytes))
			case unix.DT_REG:
				if hasPrefixBytes(nameBytes, ".tmp-") {
					out.temps = append(out.temps, filepath.Join(s.root, filepath.FromSlash(prefix+string(nameBytes))))
					continue
				}
				if !hasSuffixBytes(nameBytes, ".md") || nameBytes[0] == '.' {
					continue
				}
				if !stat() {
					continue
				}
				if mode&unix.S_IFMT != unix.S_IFREG {
					continue // replaced between the listing and the stat: the next scan sees it
				}
				arena = append(append(arena, prefix...), nameBytes...)
				fileEnds = append(fileEnds, len(arena))
				found = append(found, diskFile{st: st})
			}
		}
	}
	sc.bufs.Put(bp)
	paths := string(arena)
	start := 0
	for i, end := range fileEnds {
		found[i].rel = paths[start:end]
		start = end
	}
	slices.SortFunc(found, func(a, b diskFile) int { return strings.Compare(a.rel, b.rel) })
	out.files = found
	sc.files.Add(int64(len(found)))
	// Subfolders sort by name + "/", not by name: "a-b/" comes before "a/".
	out.subs = make([]*scannedDir, len(subNames))
	for i, name := range subNames {
		out.subs[i] = &scannedDir{key: prefix + name + "/"}
	}
	slices.SortFunc(out.subs, func(a, b *scannedDir) int { return strings.Compare(a.key, b.key) })
	for _, sub := range out.subs {
		subRel := strings.TrimSuffix(sub.key, "/")
		name := subRel[len(prefix):]
		subFD, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			s.log.Warn("memory: unable to read", "path", filepath.Join(s.root, subRel), "err", err)
			continue
		}
		select {
		case sc.sem <- struct{}{}:
			sc.wg.Add(1)
			go func(fd int, rel string, out *scannedDir) {
				defer sc.wg.Done()
				defer func() { <-sc.sem }()
				sc.visit(fd, rel, out)
			}(subFD, subRel, sub)
		default:
			sc.visit(subFD, subRel, sub)
		}
	}
}

// statxMask asks for what a stamp holds and nothing more.
const statxMask = unix.STATX_TYPE | unix.STATX_MODE | unix.STATX_INO | unix.STATX_SIZE | unix.STATX_MTIME | unix.STATX_CTIME

// statAt stats name (at *name, NUL-terminated in the getdents buffer) in the open folder fd
// without following a link: its stamp and its mode, the same numbers stampOf reads from a stat.
func (sc *folderScan) statAt(fd int, name *byte, nameBytes []byte) (fileStamp, uint32, bool) {
	if !sc.noStatx.Load() {
		var stx unix.Statx_t
		_, _, errno := unix.Syscall6(unix.SYS_STATX, uintptr(fd), uintptr(unsafe.Pointer(name)),
			uintptr(unix.AT_SYMLINK_NOFOLLOW|unix.AT_STATX_SYNC_AS_STAT), uintptr(statxMask), uintptr(unsafe.Pointer(&stx)), 0)
		switch errno {
		case 0:
			return stampOfStatx(&stx), uint32(stx.Mode), true
		case unix.ENOSYS, unix.EPERM:
			sc.noStatx.Store(true)
		default:
			return fileStamp{}, 0, false
		}
	}
	var st unix.Stat_t
	if unix.Fstatat(fd, string(nameBytes), &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
		return fileStamp{}, 0, false
	}
	return stampOfStat(&st), st.Mode, true
}

func indexZero(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return -1
}

func hasPrefixBytes(b []byte, p string) bool { return len(b) >= len(p) && string(b[:len(p)]) == p }

func hasSuffixBytes(b []byte, p string) bool {
	return len(b) >= len(p) && string(b[len(b)-len(p):]) == p
}

func dtOfMode(mode uint32) uint8 {
	switch mode & unix.S_IFMT {
	case unix.S_IFDIR:
		return unix.DT_DIR
	case unix.S_IFREG:
		return unix.DT_REG
	case unix.S_IFLNK:
		return unix.DT_LNK
	}
	return unix.DT_UNKNOWN
}

// stampOfStat is stampOf from a raw stat: the same four numbers, so a file the scan and the
// walk both saw compares equal.
func stampOfStat(st *unix.Stat_t) fileStamp {
	return fileStamp{mtime: st.Mtim.Sec*1e9 + st.Mtim.Nsec, size: st.Size,
		ctime: st.Ctim.Sec*1e9 + st.Ctim.Nsec, ino: int64(st.Ino)}
}

// stampOfStatx is stampOfStat from statx.
func stampOfStatx(st *unix.Statx_t) fileStamp {
	return fileStamp{mtime: st.Mtime.Sec*1e9 + int64(st.Mtime.Nsec), size: int64(st.Size),
		ctime: st.Ctime.Sec*1e9 + int64(st.Ctime.Nsec), ino: int64(st.Ino)}
}
