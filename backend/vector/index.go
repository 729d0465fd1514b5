package vector

import (
	"context"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"engram/backend/embed"
	"engram/backend/memory"
)

// Index searches the vectors stored in memory_vec for one model. It keeps them in memory as
// one flat slab and refreshes incrementally from the vector change log (filled by triggers, so
// writes by other processes are seen too). Large indexes are searched in two stages: every
// vector folded to foldDim dimensions (v'[i] = Σ v[i+k·foldDim], the same features hashed into
// fewer buckets) and quantized to int8 is scored first, a sixteenth of the memory read, and
// the best few hundred are scored again in full (quant.go, with an AVX2 kernel where the CPU
// has one).
type Index struct {
	store *memory.Store
	model string

	mu     sync.RWMutex
	loaded bool
	seq    int64
	file   int64 // the store's IndexFile at the last reload
	dim    int
	meta   []vecMeta
	cls    []int32 // each row's index into classes
	slab   []float32
	qrows  []int8    // each row folded to foldDim and quantized (quant.go), when the index folds
	qscale []float32 // the scale of each row of qrows
	pos    map[int64]int
	// classes are the distinct (scope instance, type, archived, reviewed) tuples of the rows,
	// each row naming its own by index: a search asks the filter once per class instead of
	// once per row (100k string comparisons per search at 100k memories).
	classes []vecClass
	classOf map[vecClass]int32
	// snapshots counts the loads served by the snapshot (snapshot.go), reloads those read from
	// SQLite.
	snapshots, reloads atomic.Int64
	// behind counts the memories changed since the snapshot on disk was taken: what the next
	// process starting from it would replay (SaveIfBehind).
	behind int
}

// vecClass is what a filter looks at in a row.
type vecClass struct {
	scope    memory.Scope
	key      string
	typ      memory.Type
	archived bool
	reviewed bool
}

// class returns the index of c in x.classes, adding it when new.
func (x *Index) class(c vecClass) int32 {
	if k, ok := x.classOf[c]; ok {
		return k
	}
	if x.classOf == nil {
		x.classOf = map[vecClass]int32{}
	}
	k := int32(len(x.classes))
	x.classes = append(x.classes, c)
	x.classOf[c] = k
	return k
}

// foldDim is the width of the first-stage vectors; twoStageFrom is the size from which the two
// stages pay off.
const (
	foldDim      = 64
	twoStageFrom = 20000
)

// folds reports whether rows get a quantized folded copy for the first stage: vectors wider
// than foldDim (a last block narrower than foldDim folds into the first dimensions).
func (x *Index) folds() bool { return x.dim > foldDim }

type vecMeta struct {
	rid int64
	id  string
}

// NewIndex returns the in-process vector index of model over store.
func NewIndex(store *memory.Store, model string) *Index {
	return &Index{store: store, model: model, pos: map[int64]int{}}
}

// Model is the model whose vectors the index serves.
func (x *Index) Model() string { return x.model }

// Len is the number of vectors held (after the last refresh).
func (x *Index) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.meta)
}

// maxLogBatch bounds one incremental refresh; a longer backlog reloads everything.
const maxLogBatch = 5000

// refresh brings the cache up to date with memory_vec. Called with mu held for writing.
func (x *Index) refresh(ctx context.Context) error {
	newest, oldest, err := x.store.VectorLogHead(ctx)
	if err != nil {
		return err
	}
	file := x.store.IndexFile()
	if x.loaded && newest == x.seq && file == x.file {
		return nil
	}
	// Never loaded, or the index file was rebuilt under this process (a damaged one repaired,
	// a deleted one made again: row ids and the log started over): start from the snapshot
	// when the log still holds the row it was taken at, else load everything.
	fromSnapshot := false
	if !x.loaded || file != x.file {
		x.file = file
		x.reset()
		if fromSnapshot = x.loadSnapshot(ctx); !fromSnapshot {
			return x.reload(ctx)
		}
	}
	// Load everything when the log was pruned past what we hold, is behind it, or the backlog
	// is long; otherwise apply just the rows that changed.
	if oldest > x.seq+1 || newest < x.seq || newest-x.seq > maxLogBatch {
		return x.reload(ctx)
	}
	rids, seq, err := x.store.VectorChangesSince(ctx, x.seq, maxLogBatch)
	if err != nil {
		return err
	}
	if slices.Contains(rids, memory.VectorLogReload) { // a bulk build: its rows were not logged
		return x.reload(ctx)
	}
	if len(rids) == 0 { // ScanVectors reads every vector for no row ids
		x.seq = seq
		return nil
	}
	for _, rid := range rids {
		x.remove(rid)
	}
	if err := x.store.ScanVectors(ctx, x.model, rids, x.add); err != nil {
		return err
	}
	x.seq = seq
	x.behind += len(rids) // zero after a snapshot load: reset zeroed it
	// A snapshot many changes behind is taken again, so the next process replays fewer. The
	// rows read after seq may be newer than seq: replaying them again is harmless, as every
	// later change of theirs is logged after seq. A process that runs on saves at its end
	// instead (SaveIfBehind): a save holds the index for a few hundred milliseconds at 100k.
	if fromSnapshot && x.behind >= resaveAfter {
		x.saveCurrent(ctx)
	}
	return nil
}

// saveCurrent saves the snapshot at the log row the index is current at. Called with mu held.
func (x *Index) saveCurrent(ctx context.Context) {
	if tag, ok, err := x.store.VectorLogTag(ctx, x.seq); err == nil && ok {
		x.saveSnapshot(memory.VectorState{Head: x.seq, Tag: tag, Known: true})
		x.behind = 0
	}
}

// SaveIfBehind saves the snapshot when the index holds resaveAfter or more changes the one on
// disk lacks. A running app, serve or MCP server follows the log for hours and never loads
// again, so without this its snapshot stayed at the start and the first CLI call after it
// ended replayed the whole session (past maxLogBatch changes: read every vector from SQLite).
// Called as the services close.
func (x *Index) SaveIfBehind(ctx context.Context) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.loaded && x.behind >= resaveAfter {
		x.saveCurrent(ctx)
	}
}

// resaveAfter is how many changed memories a process replays on top of the snapshot before it
// saves a new one (a save writes every vector: ~110 MB at 100k memories).
const resaveAfter = 500

// reset empties the cache.
func (x *Index) reset() {
	x.meta, x.cls, x.slab, x.pos, x.dim = x.meta[:0], x.cls[:0], x.slab[:0], map[int64]int{}, 0
	x.qrows, x.qscale = x.qrows[:0], x.qscale[:0]
	x.classes, x.classOf = nil, nil
	x.loaded, x.behind = false, 0
}

// reload reads every vector from SQLite and saves the snapshot for the next process.
func (x *Index) reload(ctx context.Context) error {
	x.reset()
	x.reloads.Add(1)
	st, err := x.store.ScanVectorsAt(ctx, x.model, x.add)
	if err != nil {
		return err
	}
	x.loaded, x.seq, x.behind = true, st.Head, 0
	x.saveSnapshot(st)
	return nil
}

// add appends one stored vector; a vector of another width than the first is skipped (the
// model string pins the width, so this only guards against a damaged row).
func (x *Index) add(e memory.VectorEntry) {
	n := len(e.Vec) / 4
	if n == 0 {
		return
	}
	if x.dim == 0 {
		x.dim = n
	}
	if n != x.dim {
		return
	}
	if _, dup := x.pos[e.RID]; dup {
		x.remove(e.RID)
	}
	x.pos[e.RID] = len(x.meta)
	x.meta = append(x.meta, vecMeta{rid: e.RID, id: e.ID})
	x.cls = append(x.cls, x.class(vecClass{scope: e.Scope, key: e.ScopeKey, typ: e.Type,
		archived: e.Archived, reviewed: e.Reviewed}))
	start := len(x.slab)
	x.slab = append(x.slab, make([]float32, n)...)
	DecodeVec(e.Vec, x.slab[start:start+n])
	if x.folds() {
		var f [foldDim]float32
		fold(x.slab[start:start+n], f[:])
		var q [foldDim]int8
		x.qscale = append(x.qscale, quantizeRow(f[:], q[:]))
		x.qrows = append(x.qrows, q[:]...)
	}
}

// remove drops rid by moving the last row into its place.
func (x *Index) remove(rid int64) {
	i, ok := x.pos[rid]
	if !ok {
		return
	}
	last := len(x.meta) - 1
	if i != last {
		x.meta[i], x.cls[i] = x.meta[last], x.cls[last]
		copy(x.slab[i*x.dim:(i+1)*x.dim], x.slab[last*x.dim:(last+1)*x.dim])
		if x.folds() {
			copy(x.qrows[i*foldDim:(i+1)*foldDim], x.qrows[last*foldDim:(last+1)*foldDim])
			x.qscale[i] = x.qscale[last]
		}
		x.pos[x.meta[i].rid] = i
	}
	x.meta, x.cls = x.meta[:last], x.cls[:last]
	x.slab = x.slab[:last*x.dim]
	if x.folds() {
		x.qrows, x.qscale = x.qrows[:last*foldDim], x.qscale[:last]
	}
	delete(x.pos, rid)
}

// Search returns up to limit nearest vectors among the memories f lets through, best first.
func (x *Index) Search(ctx context.Context, vec []float32, limit int, f memory.Filter) ([]Match, error) {
	if limit <= 0 || len(vec) == 0 {
		return nil, nil
	}
	match, err := f.Matcher(x.store.Projects())
	if err != nil {
		return nil, err
	}
	x.mu.Lock()
	err = x.refresh(ctx)
	x.mu.Unlock()
	if err != nil {
		return nil, err
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.dim == 0 || len(vec) != x.dim || len(x.meta) == 0 {
		return nil, nil
	}
	allowed := make([]bool, len(x.classes))
	for k, c := range x.classes {
		allowed[k] = match.Allows(c.scope, c.key, c.typ, c.archived, c.reviewed)
	}
	if len(x.meta) < twoStageFrom || !x.folds() {
		return x.matches(x.exact(vec, limit, allowed)), nil
	}
	return x.matches(x.twoStage(vec, limit, allowed)), nil
}

// exact scores every allowed row in full (allowed is indexed by class).
func (x *Index) exact(vec []float32, limit int, allowed []bool) []cand {
	return x.split(len(x.meta), exactPerWorker, limit, func(lo, hi int, t *topK) {
		for i := lo; i < hi; i++ {
			if allowed[x.cls[i]] {
				t.offer(i, embed.Dot(vec, x.slab[i*x.dim:(i+1)*x.dim]))
			}
		}
	})
}

// twoStage scores the quantized folded rows, then the best few hundred in full.
func (x *Index) twoStage(vec []float32, limit int, allowed []bool) []cand {
	var qf [foldDim]float32
	fold(vec, qf[:])
	var qq [foldDim]int16
	quantizeQuery(qf[:], &qq)
	first := x.split(len(x.meta), firstPerWorker, max(8*limit, 400), func(lo, hi int, t *topK) {
		x.firstStage(&qq, allowed, lo, hi, t)
	})
	second := newTopK(limit)
	for _, c := range first {
		second.offer(c.i, embed.Dot(vec, x.slab[c.i*x.dim:(c.i+1)*x.dim]))
	}
	return second.sorted()
}

// scanBlock is how many rows the first stage's kernel scores at a time.
const scanBlock = 512

// firstStage offers rows lo..hi-1 to t by their quantized folded score. A row's score is
// compared with the worst kept before its class is looked up: once t is full almost every row
// stops there.
func (x *Index) firstStage(qq *[foldDim]int16, allowed []bool, lo, hi int, t *topK) {
	var buf [scanBlock]int32
	for b := lo; b < hi; b += scanBlock {
		e := min(b+scanBlock, hi)
		dots := buf[:e-b]
		dotsInt8(qq, x.qrows[b*foldDim:e*foldDim], dots)
		scales, cls := x.qscale[b:e], x.cls[b:e]
		for j, d := range dots {
			s := float32(d) * scales[j]
			if t.admits(b+j, s) && allowed[cls[j]] {
				t.offer(b+j, s)
			}
		}
	}
}

// Rows per goroutine below which a scan does not split further. The quantized first stage
// reads 100k rows in well under a millisecond, and recall runs it beside the lexical paths,
// which hold the other core: it stays on one goroutine up to a quarter million rows.
const (
	exactPerWorker = 5000
	firstPerWorker = 1 << 18
)

// split runs scan over rows 0..n-1 in up to min(cores, 4) parts of at least per rows, each
// keeping its own best limit, and returns the best limit of all, best first.
func (x *Index) split(n, per, limit int, scan func(lo, hi int, t *topK)) []cand {
	workers := max(1, min(n/per, runtime.GOMAXPROCS(0), 4))
	parts := make([]topK, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := w*n/workers, (w+1)*n/workers
		parts[w] = newTopK(limit)
		if w == workers-1 {
			scan(lo, hi, &parts[w]) // the last part on this goroutine
			break
		}
		wg.Add(1)
		go func(t *topK) {
			defer wg.Done()
			scan(lo, hi, t)
		}(&parts[w])
	}
	wg.Wait()
	if workers == 1 {
		return parts[0].sorted()
	}
	all := newTopK(limit)
	for _, p := range parts {
		for _, c := range p.items {
			all.offer(c.i, c.s)
		}
	}
	return all.sorted()
}

func (x *Index) matches(best []cand) []Match {
	out := make([]Match, len(best))
	for k, c := range best {
		m := x.meta[c.i]
		out[k] = Match{ID: m.id, RID: m.rid, Score: float64(c.s)}
	}
	return out
}
