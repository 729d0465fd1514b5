package recall

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"os"

	"engram/backend/memory"
)

// The person reads kept on disk (issue 14 item 5). A facet question ("where do I live",
// "我叫什么名字") reads every visible user memory through the facet rules: at 10k memories
// two thirds of a cold `engram search`'s 0.17 s, where an ordinary question takes 0.05. The
// app keeps its reads for the next question (personReads); a CLI process started empty. So
// the bits of each reading — the facets it was read for and those it states — are kept beside
// the index by the memory's content version, and a new process starts from them: a memory
// whose version is kept and that states none of the facets asked is neither loaded nor read.
// One that states one is read again (the question's parts are checked in its text, which the
// file does not keep), as is every memory written since (another version).
//
// The bits are what this build's rules found, so the file names the executable that wrote it
// (path, size, modification time): a process of another build starts empty, and its first
// facet question writes the file anew.

// readsMagic begins the file: format, the build key, the entry count, a CRC-32 of what
// follows, then per entry the id and version (each after its length) and the two bit sets (32 bits each;
// version 1 kept 16).
var readsMagic = []byte("ENGRAM-PERSONS-2\n")

// readsCacheKind names the file beside the index (memory.Store.CachePath).
const readsCacheKind = "persons"

// saveReadsAfter is how many memories must have been read afresh before the reads are saved
// again: a question after one edit reads one memory, and rewriting the file for it would cost
// more than the next cold process reading that one memory again.
const saveReadsAfter = 32

// keepOnDisk has the reads loaded from the store's cache file on first use and saved there
// after a question that read many memories afresh (not on a read-only store).
func (c *personReads) keepOnDisk(store *memory.Store) {
	c.path = store.CachePath(readsCacheKind)
	c.save = !store.ReadOnly()
	c.build = buildKey
}

// buildKey names the running executable by path, size and modification time (0 when it
// cannot: then nothing is loaded or saved).
func buildKey() uint64 {
	exe, err := os.Executable()
	if err != nil {
		return 0
	}
	info, err := os.Stat(exe)
	if err != nil {
		return 0
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%d\x00%d", exe, info.Size(), info.ModTime().UnixNano())
	return h.Sum64() | 1
}

// loaded reads the file once, on the first lookup: kept readings join the cache without text.
func (c *personReads) loaded() {
	if c == nil || c.build == nil {
		return
	}
	c.loadOnce.Do(func() {
		c.key = c.build()
		if c.key == 0 {
			return
		}
		entries, ok := decodeReads(c.path, c.key)
		if !ok {
			return
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		for id, r := range entries {
			if len(c.m) >= maxPersonReads {
				break
			}
			if _, have := c.m[id]; !have {
				c.m[id] = r
			}
		}
	})
}

// decodeReads returns the file's entries when it was written by the build key; ok is false
// for a missing, damaged or other build's file.
func decodeReads(path string, key uint64) (map[string]personRead, bool) {
	n, body, ok := memory.ReadSidecar(path, readsMagic, key)
	if !ok {
		return nil, false
	}
	out := make(map[string]personRead, n)
	str := func() (string, bool) {
		size, k := binary.Uvarint(body)
		if k <= 0 || size > uint64(len(body)-k) {
			return "", false
		}
		s := string(body[k : k+int(size)])
		body = body[k+int(size):]
		return s, true
	}
	for range n {
		id, ok1 := str()
		version, ok2 := str()
		if !ok1 || !ok2 || len(body) < 8 || id == "" || version == "" {
			return nil, false
		}
		out[id] = personRead{version: version, checked: binary.LittleEndian.Uint32(body), states: binary.LittleEndian.Uint32(body[4:])}
		body = body[8:]
	}
	if len(body) != 0 {
		return nil, false
	}
	return out, true
}

// saveIfRead writes the kept readings' bits when saveReadsAfter memories were read afresh
// since the last save, through a file renamed into place (memory.WriteSidecar). Best effort:
// without it the next process reads the memories again.
func (c *personReads) saveIfRead() {
	if c == nil || !c.save {
		return
	}
	if c.loaded(); c.key == 0 {
		return
	}
	c.mu.Lock()
	if c.fresh < saveReadsAfter {
		c.mu.Unlock()
		return
	}
	c.fresh = 0
	var body []byte
	n := 0
	for id, r := range c.m {
		body = binary.AppendUvarint(body, uint64(len(id)))
		body = append(body, id...)
		body = binary.AppendUvarint(body, uint64(len(r.version)))
		body = append(body, r.version...)
		body = binary.LittleEndian.AppendUint32(body, r.checked)
		body = binary.LittleEndian.AppendUint32(body, r.states)
		n++
	}
	c.mu.Unlock()
	_ = memory.WriteSidecar(c.path, memory.SidecarHead(readsMagic, c.key, n, body), body)
}
