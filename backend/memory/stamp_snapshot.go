package memory

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The stamp snapshot (issue 14 item 5: a cold process's open). With no watcher to answer for
// the index, every open compares the files' stamps with the index's (fresh_open.go), and at
// 100k memories reading the index's side — 100k rows through SQLite and the driver — was 40%
// of the open's CPU. The index's side changes only when memory_meta's paths or stamps do, so it
// is kept beside the index as one file, read whole, and used only while it is exactly the
// index's: migration 19's triggers set stamp_version.v to a new random value in the
// transaction of every insert, delete, or change of a path or stamp of memory_meta, and the
// snapshot records the value it was read at (in the same read transaction). A snapshot of
// another value — the index changed since, was rebuilt, restored or replaced — is not used;
// nor is one that fails its checksum. The files themselves are still listed and stat'ed at
// every open: only the index's half of the comparison is cached, so creations, deletions,
// renames and in-place edits are found exactly as before.

// stampsMagic begins a snapshot file: format, then the version it was read at, the row count,
// a CRC-32 of what follows, and each packed row (packedStampsQuery) after its length.
var stampsMagic = []byte("ENGRAM-STAMPS-1\n")

// stampsPath is the snapshot's file beside the index, named like the index's own files, which
// the watcher, the restore and the home's walk leave alone.
func (s *Store) stampsPath() string { return s.indexPath() + "-stamps" }

// stampTriggers keep stamp_version (migration 19): a new random value in the transaction of
// every change of memory_meta's paths or stamps. A bulk build drops them and sets a new value
// once (holdStampTriggers), instead of once per row.
var stampTriggers = []string{
	`CREATE TRIGGER memory_meta_stamps_insert AFTER INSERT ON memory_meta BEGIN UPDATE stamp_version SET v = random() WHERE id = 1; END`,
	`CREATE TRIGGER memory_meta_stamps_delete AFTER DELETE ON memory_meta BEGIN UPDATE stamp_version SET v = random() WHERE id = 1; END`,
	`CREATE TRIGGER memory_meta_stamps_update AFTER UPDATE OF path, mtime, size, ctime, ino ON memory_meta BEGIN UPDATE stamp_version SET v = random() WHERE id = 1; END`,
}

// heldTriggers are the triggers a transaction that rewrites many rows drops for its length
// (the stamps', migration 19, and memory_meta's vector-log ones, migration 20: vector_log.go),
// and afterBulk what it runs in their place, once, before it commits: a new stamp version and
// a change-log row that has every vector loaded again. A trigger on memory_meta gives every
// insert a statement journal, at which FTS5 flushes the text pending in the transaction
// (lean.go): a bulk build with them took 15.7 s where it takes 9.
var (
	heldTriggers = append(append([]string{}, stampTriggers...), vectorTriggers...)
	afterBulk    = []string{`UPDATE stamp_version SET v = random() WHERE id = 1`, logReload}
)

// triggerName is the name a CREATE TRIGGER statement gives.
func triggerName(create string) string {
	f := strings.Fields(create)
	return f[2]
}

// holdStampTriggers drops heldTriggers in a transaction that rewrites many rows (on);
// releaseStampTriggers puts them back and runs afterBulk, in the same transaction.
func holdStampTriggers(ctx context.Context, tx *sql.Tx, on bool) (bool, error) {
	if !on {
		return false, nil
	}
	for _, q := range heldTriggers {
		if _, err := tx.ExecContext(ctx, `DROP TRIGGER IF EXISTS `+triggerName(q)); err != nil {
			return false, fmt.Errorf("memory: unable to hold the version triggers: %w", err)
		}
	}
	return true, nil
}

func releaseStampTriggers(ctx context.Context, tx *sql.Tx, held bool) error {
	if !held {
		return nil
	}
	for _, q := range append(append([]string{}, heldTriggers...), afterBulk...) {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("memory: unable to restore the version triggers: %w", err)
		}
	}
	return nil
}

// stampVersion reads the version the index's stamps are at (migration 19).
func stampVersion(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (int64, error) {
	var v int64
	if err := q.QueryRowContext(ctx, `SELECT v FROM stamp_version WHERE id = 1`).Scan(&v); err != nil {
		return 0, fmt.Errorf("memory: unable to read the stamp version: %w", err)
	}
	return v, nil
}

// loadStamps returns the snapshot's rows when it was taken at version v; ok is false for a
// missing, damaged or older snapshot.
func (s *Store) loadStamps(v int64) (indexStamps, bool) {
	var idx indexStamps
	n, body, ok := ReadSidecar(s.stampsPath(), stampsMagic, uint64(v))
	if !ok {
		return idx, false
	}
	idx.chunks = [][]byte{body}
	idx.rows = make([]stampRow, 0, n)
	for at := 0; at < len(body); {
		size, k := binary.Uvarint(body[at:])
		if k <= 0 || size > uint64(len(body)-at-k) {
			return indexStamps{}, false
		}
		start := at + k
		idx.rows = append(idx.rows, stampRow{chunk: 0, start: int32(start), end: int32(start + int(size))})
		at = start + int(size)
	}
	if len(idx.rows) != int(n) {
		return indexStamps{}, false
	}
	return idx, true
}

// saveStamps writes the rows read at version v as the snapshot, through a file of its own
// renamed into place, so that a reader sees one whole snapshot and two processes saving at
// once do not write into each other's. Best effort: without it the next open reads the index,
// as before.
func (s *Store) saveStamps(v int64, idx indexStamps) {
	if s.readOnly || len(idx.rows) > 1<<31-1 {
		return
	}
	var body []byte
	var lenBuf [binary.MaxVarintLen64]byte
	for i := range idx.rows {
		row := idx.row(i)
		body = append(body, lenBuf[:binary.PutUvarint(lenBuf[:], uint64(len(row)))]...)
		body = append(body, row...)
	}
	if err := WriteSidecar(s.stampsPath(), SidecarHead(stampsMagic, uint64(v), len(idx.rows), body), body); err != nil {
		s.log.Debug("memory: stamp snapshot not saved", "err", err)
	}
}

// SidecarHead is the head of a cache file beside the index: its format (magic), the key it is
// valid for (an index version, a build), the count of entries in body and a CRC-32 of body.
func SidecarHead(magic []byte, key uint64, n int, body []byte) []byte {
	head := make([]byte, 0, len(magic)+16)
	head = append(head, magic...)
	head = binary.LittleEndian.AppendUint64(head, key)
	head = binary.LittleEndian.AppendUint32(head, uint32(n))
	return binary.LittleEndian.AppendUint32(head, crc32.ChecksumIEEE(body))
}

// ReadSidecar reads a cache file written with SidecarHead: its entry count and body, ok only
// when it has the format and the key asked and its body is whole (the CRC, and at least a
// byte an entry).
func ReadSidecar(path string, magic []byte, key uint64) (n uint32, body []byte, ok bool) {
	b, err := os.ReadFile(path)
	if err != nil || len(b) < len(magic)+16 || !bytes.HasPrefix(b, magic) {
		return 0, nil, false
	}
	h := b[len(magic):]
	if binary.LittleEndian.Uint64(h) != key {
		return 0, nil, false
	}
	n, sum, body := binary.LittleEndian.Uint32(h[8:]), binary.LittleEndian.Uint32(h[12:]), h[16:]
	if crc32.ChecksumIEEE(body) != sum || uint64(n) > uint64(len(body)) {
		return 0, nil, false
	}
	return n, body, true
}

// WriteSidecar writes parts as the file at path beside the index, whole (WriteWhole), its
// temporary file beside it. A cache: a home that went away meanwhile is not an error.
func WriteSidecar(path string, parts ...[]byte) error {
	err := WriteWhole(path, filepath.Dir(path), filepath.Base(path)+".", parts...)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// WriteWhole writes parts as the file at path through a temporary file (tmpDir/tmpPrefix*, on
// the same file system) renamed into place, so that a reader sees the old file or the new one,
// whole, and two processes writing at once do not write into each other's. A temporary file a
// process killed while writing left behind is removed once it is clearly not being written
// (an hour old). Not flushed to the disk: for caches, which a power cut may cost but never
// corrupt unseen (their readers check them); what must survive one is written with
// WriteWholeDurable.
func WriteWhole(path, tmpDir, tmpPrefix string, parts ...[]byte) error {
	return writeWhole(path, tmpDir, tmpPrefix, false, parts)
}

// WriteWholeDurable is WriteWhole that flushes the new file before the rename and the folder
// after it: git's branch and config files, which nothing can rebuild. Without the flush a
// power cut could leave the renamed file empty (a file system need not write a file's data
// before its new name).
func WriteWholeDurable(path, tmpDir, tmpPrefix string, parts ...[]byte) error {
	return writeWhole(path, tmpDir, tmpPrefix, true, parts)
}

func writeWhole(path, tmpDir, tmpPrefix string, durable bool, parts [][]byte) error {
	f, err := os.CreateTemp(tmpDir, tmpPrefix+"*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	for _, p := range parts {
		if _, err = f.Write(p); err != nil {
			break
		}
	}
	if err == nil && durable {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return err
	}
	if durable {
		if err := syncDir(filepath.Dir(path)); err != nil {
			return err
		}
	}
	stale, _ := filepath.Glob(filepath.Join(tmpDir, tmpPrefix+"*"))
	for _, name := range stale {
		if info, err := os.Stat(name); err == nil && time.Since(info.ModTime()) > time.Hour {
			_ = os.Remove(name)
		}
	}
	return nil
}
