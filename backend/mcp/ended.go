package mcp

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
)

// EndedSessionsFile, in the home, lists the HTTP sessions their clients ended (DELETE), one
// fingerprint a line, owner-only. A session id is signed and carries what its session needs
// (sessionid.go), so any process on the home would revive it (httprevive.go): the only way a
// restarted Engram can know that a client ended it is to have written it down. The spec wants a
// terminated session's id answered 404 so that its client initializes again; before this list
// the ended ids were kept in memory only, and after a restart a client (or anyone holding the
// id and the token) naming one got a live session again.
const EndedSessionsFile = "mcp-sessions.ended"

// maxEnded bounds the ended sessions remembered: the latest maxEnded are kept, in memory and in
// the file, which is appended to and rewritten with only those once it holds twice as many
// (at 33 bytes a line, under 300 KB).
const maxEnded = 4096

// endedBook remembers the sessions their clients ended, across restarts when it has a path.
// Appends are single small O_APPEND writes, so two processes on one home (the app's bridge and
// `engram serve`) do not tear each other's lines; each reads the file when asked about an id it
// does not hold, which happens once per unknown id (a revive or a DELETE after a restart).
type endedBook struct {
	path   string // "" keeps the ends in memory only (no home: tests, the bench)
	logger *slog.Logger

	mu    sync.Mutex
	mem   map[string]bool // fingerprints, the latest maxEnded
	order []string
}

func newEndedBook(home string, logger *slog.Logger) *endedBook {
	b := &endedBook{logger: logger, mem: map[string]bool{}}
	if home != "" {
		b.path = filepath.Join(home, EndedSessionsFile)
	}
	return b
}

// fingerprint is what the book keeps of an id: the first 16 bytes of its SHA-256, in hex. The
// id itself is not written down (with the token it would name a live session of another
// process until it is ended there).
func fingerprint(id string) string {
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:16])
}

// has reports whether id's client ended its session, here or in another process on the home.
func (b *endedBook) has(id string) bool {
	fp := fingerprint(id)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.mem[fp] {
		return true
	}
	if b.path == "" {
		return false
	}
	lines, err := b.read()
	if err != nil {
		b.logger.Warn("mcp: unable to read the ended sessions", "file", b.path, "err", err)
		return false
	}
	for _, l := range lines {
		if l == fp {
			b.remember(fp)
			return true
		}
	}
	return false
}

// add records that id's client ended its session. When the file cannot be written the end is
// still kept in memory (a warning says it will not outlive a restart).
func (b *endedBook) add(id string) {
	fp := fingerprint(id)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.mem[fp] {
		return
	}
	b.remember(fp)
	if b.path == "" {
		return
	}
	if err := b.append(fp); err != nil {
		b.logger.Warn("mcp: an ended session will be taken back after a restart", "file", b.path, "err", err)
	}
}

// remember keeps fp in memory, forgetting the oldest past maxEnded. b.mu is held.
func (b *endedBook) remember(fp string) {
	b.mem[fp] = true
	b.order = append(b.order, fp)
	if len(b.order) > maxEnded {
		delete(b.mem, b.order[0])
		b.order = b.order[1:]
	}
}

// read returns the file's well-formed lines, oldest first (none when there is no file). A line
// that is not a fingerprint (the file was edited, a write was cut) is passed over.
func (b *endedBook) read() ([]string, error) {
	data, err := os.ReadFile(b.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if l := sc.Text(); len(l) == 32 {
			if _, err := hex.DecodeString(l); err == nil {
				out = append(out, l)
			}
		}
	}
	return out, nil
}

// append adds fp to the file, and rewrites the file with its latest maxEnded lines once it
// holds twice as many. b.mu is held.
func (b *endedBook) append(fp string) error {
	f, err := os.OpenFile(b.path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	line := fp + "\n"
	if info, err := f.Stat(); err == nil && info.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, info.Size()-1); err == nil && last[0] != '\n' {
			line = "\n" + line // a write cut short: this line must not join its remains
		}
	}
	_, werr := f.WriteString(line)
	info, serr := f.Stat()
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil || serr != nil || info.Size() <= int64(2*maxEnded*(len(fp)+1)) {
		return errors.Join(werr, serr)
	}
	lines, err := b.read()
	if err != nil {
		return err
	}
	if len(lines) > maxEnded {
		lines = lines[len(lines)-maxEnded:]
	}
	var buf bytes.Buffer
	for _, l := range lines {
		buf.WriteString(l + "\n")
	}
	return writePrivate(b.path, buf.Bytes())
}

// writePrivate puts data at path whole or not at all (a temp file beside it, synced, renamed),
// readable only by its owner.
func writePrivate(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.Write(data)
	if werr == nil {
		werr = tmp.Chmod(0o600)
	}
	if werr == nil {
		werr = tmp.Sync()
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return werr
	}
	return os.Rename(tmp.Name(), path)
}
