//go:build linux

package memory

import (
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// scan lists what walk lists (the same files, links and temp files, in the same order) for
// every full reconcile, at open above all: a one-shot CLI pays for it on every call when no
// watcher answers for the index. It reads each folder once with getdents and stats its entries
// relative to the open folder (fstatat, no path walk per file), several folders at a time. The
// stat cannot be skipped: only ctime tells an in-place edit that put size and mtime back.
func (s *Store) scan() ([]diskFile, []string, error) {
	rootFD, err := unix.Open(s.root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return s.walk() // the walk reports the error as it always has
	}
	var (
		mu    sync.Mutex
		files []diskFile
		temps []string
		wg    sync.WaitGroup
	)
	workers := max(2, runtime.GOMAXPROCS(0))
	sem := make(chan struct{}, workers)
	var visit func(fd int, rel string)
	// visit reads one open folder (rel to the root, "" for the root), queues its subfolders and
	// closes fd; its subfolders run on other goroutines while the semaphore allows.
	visit = func(fd int, rel string) {
		defer unix.Close(fd)
		var subs []string
		var mine []diskFile
		var myTemps []string
		buf := make([]byte, 32<<10)
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
			for off := 0; off < n; {
				reclen := int(*(*uint16)(unsafe.Pointer(&buf[off+16])))
				typ := buf[off+18]
				nameBytes := buf[off+19 : off+reclen]
				if i := indexZero(nameBytes); i >= 0 {
					nameBytes = nameBytes[:i]
				}
				off += reclen
				name := string(nameBytes)
				if name == "." || name == ".." {
					continue
				}
				childRel := name
				if rel != "" {
					childRel = rel + "/" + name
				}
				var st unix.Stat_t
				statted := false
				if typ == unix.DT_UNKNOWN {
					if unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
						continue
					}
					statted = true
					typ = dtOfMode(st.Mode)
				}
				switch typ {
				case unix.DT_LNK:
					// Never followed, wherever it points; listed so the person sees why.
					if statted || unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil {
						mine = append(mine, diskFile{rel: childRel, st: stampOfStat(&st), link: true})
					}
				case unix.DT_DIR:
					if strings.HasPrefix(name, ".") && !(name == ".archive" && rel == "") {
						continue
					}
					subs = append(subs, childRel)
				case unix.DT_REG:
					if strings.HasPrefix(name, ".tmp-") {
						myTemps = append(myTemps, filepath.Join(s.root, filepath.FromSlash(childRel)))
						continue
					}
					if !strings.HasSuffix(name, ".md") || strings.HasPrefix(name, ".") {
						continue
					}
					if !statted && unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
						continue
					}
					if st.Mode&unix.S_IFMT != unix.S_IFREG {
						continue // replaced between the listing and the stat: the next scan sees it
					}
					mine = append(mine, diskFile{rel: childRel, st: stampOfStat(&st)})
				}
			}
		}
		mu.Lock()
		files = append(files, mine...)
		temps = append(temps, myTemps...)
		mu.Unlock()
		for _, sub := range subs {
			subFD, err := unix.Openat(fd, filepath.Base(sub), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
			if err != nil {
				s.log.Warn("memory: unable to read", "path", filepath.Join(s.root, sub), "err", err)
				continue
			}
			select {
			case sem <- struct{}{}:
				wg.Add(1)
				go func(fd int, rel string) {
					defer wg.Done()
					defer func() { <-sem }()
					visit(fd, rel)
				}(subFD, sub)
			default:
				visit(subFD, sub)
			}
		}
	}
	visit(rootFD, "")
	wg.Wait()
	sort.Slice(files, func(i, j int) bool { return files[i].rel < files[j].rel })
	sort.Strings(temps)
	return files, temps, nil
}

func indexZero(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return -1
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
