package vector

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"io"
	"os"
	"unsafe"

	"engram/backend/memory"
)

// The vector snapshot (issue 14 item 5: `engram search` as a whole process). A process with
// nothing running beside it to forward to loads every stored vector before its first search —
// at 10k memories two thirds of a cold search's CPU with the garbage collection it causes, at
// 100k most of its second. What a load reads is kept beside the index
// (memory.VectorSnapshotPath) as the in-memory arrays themselves, with the vector change log's
// row it is current at (its sequence number and random tag: memory/vector_log.go). A later
// process starts from it when the log still holds that row with that tag, and applies the rows
// logged since, as a running process does — every change a load could see is logged, a bulk
// build as one row that has everything loaded again. Anything else — a rebuilt, replaced or
// restored index, a log pruned past the row, another model, a damaged or cut file — is a load
// from SQLite as before, which saves the snapshot again. The ranking is the same either way:
// the arrays are the same floats.
//
// The file, little-endian, 8-byte aligned sections:
//
//	magic | log row: sequence number, tag (int64) | crc32 of the rest, dim, rows, classes,
//	folds (uint32) | rids (int64 × rows) | class of each row (int32 × rows) | vectors
//	(float32 × rows × dim) | first-stage scales (float32 × rows) and rows (int8 × rows ×
//	foldDim), when the index folds | padding to 8 | model, the classes and the ids as
//	length-prefixed strings.
var snapshotMagic = []byte("ENGRAM-VECTORS-1")

const snapshotHead = 16 + 8 + 8 + 5*4 + 4 // magic, version, head, five uint32, padding to 8

// littleEndian reports whether this machine stores numbers as the file does: the arrays are
// written and read as they lie in memory.
func littleEndian() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}

// asBytes is the memory of s as bytes.
func asBytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))
}

// pad8 is n rounded up to a multiple of 8.
func pad8(n int) int { return (n + 7) &^ 7 }

// saveSnapshot writes what the index holds, current at st. Best effort: without it the next
// process loads from SQLite, as before.
func (x *Index) saveSnapshot(st memory.VectorState) {
	if !st.Known || x.store.ReadOnly() || !littleEndian() || len(x.meta) == 0 || len(x.meta) > 1<<31-1 {
		return
	}
	folds := x.folds()
	n := len(x.meta)
	rids := make([]int64, n)
	for i, m := range x.meta {
		rids[i] = m.rid
	}
	var strs []byte
	put := func(s string) {
		strs = binary.AppendUvarint(strs, uint64(len(s)))
		strs = append(strs, s...)
	}
	put(x.model)
	for _, c := range x.classes {
		put(string(c.scope))
		put(c.key)
		put(string(c.typ))
		strs = append(strs, boolByte(c.archived)|boolByte(c.reviewed)<<1)
	}
	for _, m := range x.meta {
		put(m.id)
	}
	parts := [][]byte{asBytes(rids), asBytes(x.cls), asBytes(x.slab)}
	if folds {
		parts = append(parts, asBytes(x.qscale), asBytes(x.qrows))
	}
	size := 0
	for _, p := range parts {
		size += len(p)
	}
	parts = append(parts, make([]byte, pad8(size)-size), strs)
	sum := crc32.NewIEEE()
	for _, p := range parts {
		sum.Write(p)
	}
	head := make([]byte, 0, snapshotHead)
	head = append(head, snapshotMagic...)
	head = binary.LittleEndian.AppendUint64(head, uint64(st.Head))
	head = binary.LittleEndian.AppendUint64(head, uint64(st.Tag))
	head = binary.LittleEndian.AppendUint32(head, sum.Sum32())
	head = binary.LittleEndian.AppendUint32(head, uint32(x.dim))
	head = binary.LittleEndian.AppendUint32(head, uint32(n))
	head = binary.LittleEndian.AppendUint32(head, uint32(len(x.classes)))
	head = binary.LittleEndian.AppendUint32(head, uint32(boolByte(folds)))
	head = append(head, 0, 0, 0, 0)
	_ = memory.WriteSidecar(x.store.VectorSnapshotPath(), append([][]byte{head}, parts...)...)
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// loadSnapshot fills the index from the snapshot when the change log still holds the row it
// is current at, and sets the index's log position to that row; false leaves the index empty.
func (x *Index) loadSnapshot(ctx context.Context) bool {
	if !littleEndian() {
		return false
	}
	f, err := os.Open(x.store.VectorSnapshotPath())
	if err != nil {
		return false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || info.Size() < snapshotHead || info.Size() > 1<<40 {
		return false
	}
	// Read into 8-byte words, so that every section is aligned for the type it holds.
	words := make([]uint64, (info.Size()+7)/8)
	b := asBytes(words)[:info.Size()]
	if _, err := io.ReadFull(f, b); err != nil {
		return false
	}
	if !bytes.HasPrefix(b, snapshotMagic) {
		return false
	}
	seq, tag := int64(binary.LittleEndian.Uint64(b[16:])), int64(binary.LittleEndian.Uint64(b[24:]))
	if now, ok, err := x.store.VectorLogTag(ctx, seq); err != nil || !ok || now != tag {
		return false
	}
	h := b[32:]
	sum, dim, n, nc, folds := binary.LittleEndian.Uint32(h), int(binary.LittleEndian.Uint32(h[4:])),
		int(binary.LittleEndian.Uint32(h[8:])), int(binary.LittleEndian.Uint32(h[12:])), binary.LittleEndian.Uint32(h[16:]) == 1
	body := b[snapshotHead:]
	if crc32.ChecksumIEEE(body) != sum || dim <= 0 || dim > 1<<16 || n <= 0 || n > 1<<31-1 || nc <= 0 || nc > 1<<24 ||
		folds != (dim > foldDim) {
		return false
	}
	arrays := n*8 + n*4 + n*dim*4
	if folds {
		arrays += n*4 + n*foldDim
	}
	if pad8(arrays) > len(body) {
		return false
	}
	at := 0
	take := func(size int) []byte { p := body[at : at+size]; at += size; return p }
	rids := unsafe.Slice((*int64)(unsafe.Pointer(&body[0])), n)
	take(n * 8)
	cls := unsafe.Slice((*int32)(unsafe.Pointer(&take(n * 4)[0])), n)
	slab := unsafe.Slice((*float32)(unsafe.Pointer(&take(n * dim * 4)[0])), n*dim)
	var qscale []float32
	var qrows []int8
	if folds {
		qscale = unsafe.Slice((*float32)(unsafe.Pointer(&take(n * 4)[0])), n)
		qrows = unsafe.Slice((*int8)(unsafe.Pointer(&take(n * foldDim)[0])), n*foldDim)
	}
	// The strings: one copy of the whole section, which every id and class then shares.
	strs := string(body[pad8(arrays):])
	sat := 0
	next := func() (string, bool) {
		size, k := uvarint(strs[sat:])
		if k <= 0 || size > uint64(len(strs)-sat-k) {
			return "", false
		}
		s := strs[sat+k : sat+k+int(size)]
		sat += k + int(size)
		return s, true
	}
	if model, ok := next(); !ok || model != x.model {
		return false
	}
	classes := make([]vecClass, nc)
	classOf := make(map[vecClass]int32, nc)
	for k := range classes {
		scope, ok1 := next()
		key, ok2 := next()
		typ, ok3 := next()
		if !ok1 || !ok2 || !ok3 || sat >= len(strs) {
			return false
		}
		flags := strs[sat]
		sat++
		classes[k] = vecClass{scope: memory.Scope(scope), key: key, typ: memory.Type(typ), archived: flags&1 != 0, reviewed: flags&2 != 0}
		classOf[classes[k]] = int32(k)
	}
	meta := make([]vecMeta, n)
	pos := make(map[int64]int, n)
	for i := range meta {
		id, ok := next()
		if !ok || cls[i] < 0 || int(cls[i]) >= nc {
			return false
		}
		meta[i] = vecMeta{rid: rids[i], id: id}
		pos[rids[i]] = i
	}
	if sat != len(strs) || len(pos) != n {
		return false
	}
	// Rows are appended past these slices' ends, which makes a copy: the file's buffer is
	// only ever written in place by remove, which moves a row within it.
	x.meta, x.cls, x.slab, x.qscale, x.qrows = meta, cls[:n:n], slab[:n*dim:n*dim], qscale, qrows
	x.pos, x.classes, x.classOf, x.dim, x.seq, x.loaded = pos, classes, classOf, dim, seq, true
	x.snapshots.Add(1)
	return true
}

// uvarint is binary.Uvarint over a string, without a copy to bytes.
func uvarint(s string) (uint64, int) {
	var x uint64
	var shift uint
	for i := 0; i < len(s) && i < binary.MaxVarintLen64; i++ {
		c := s[i]
		if c < 0x80 {
			if i == binary.MaxVarintLen64-1 && c > 1 {
				return 0, -(i + 1)
			}
			return x | uint64(c)<<shift, i + 1
		}
		x |= uint64(c&0x7f) << shift
		shift += 7
	}
	return 0, 0
}
