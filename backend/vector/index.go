package vector

import (
	"container/heap"
	"context"
	"runtime"
	"sync"

	"engram/backend/embed"
	"engram/backend/memory"
)

// Index searches the vectors stored in memory_vec for one model. It keeps them in memory as
// one flat slab and refreshes incrementally from the vector change log (filled by triggers, so
// writes by other processes are seen too). Large indexes are searched in two stages: every
// vector folded to foldDim dimensions (v'[i] = Σ v[i+k·foldDim], the same features hashed into
// fewer buckets) is scored first, a quarter of the work, and the best few hundred are scored
// again in full; both stages are split over the available cores.
type Index struct {
	store *memory.Store
	model string

	mu     sync.RWMutex
	loaded bool
	seq    int64
	dim    int
	meta   []vecMeta
	slab   []float32
	folded []float32 // foldDim floats per row, when dim is a multiple of foldDim
	pos    map[int64]int
	// classes are the distinct (scope instance, type, archived, reviewed) tuples of the rows,
	// each row naming its own by index: a search asks the filter once per class instead of
	// once per row (100k string comparisons per search at 100k memories).
	classes []vecClass
	classOf map[vecClass]int32
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

func (x *Index) folds() bool { return x.dim > foldDim && x.dim%foldDim == 0 }

// fold adds the foldDim-wide blocks of v into dst.
func fold(v, dst []float32) {
	for i := range dst {
		dst[i] = 0
	}
	for off := 0; off < len(v); off += foldDim {
		for i := 0; i < foldDim; i++ {
			dst[i] += v[off+i]
		}
	}
}

type vecMeta struct {
	rid   int64
	id    string
	class int32 // index into Index.classes
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
	if x.loaded && newest == x.seq {
		return nil
	}
	// Full reload when never loaded, when the log was pruned past what we saw, or when the
	// backlog is long (a reindex); otherwise apply just the rows that changed.
	if !x.loaded || (oldest > x.seq+1) || newest-x.seq > maxLogBatch {
		return x.reload(ctx, newest)
	}
	rids, seq, err := x.store.VectorChangesSince(ctx, x.seq, maxLogBatch)
	if err != nil {
		return err
	}
	for _, rid := range rids {
		x.remove(rid)
	}
	if err := x.store.ScanVectors(ctx, x.model, rids, x.add); err != nil {
		return err
	}
	x.seq = seq
	return nil
}

func (x *Index) reload(ctx context.Context, head int64) error {
	x.meta, x.slab, x.folded, x.pos, x.dim = x.meta[:0], x.slab[:0], x.folded[:0], map[int64]int{}, 0
	x.classes, x.classOf = nil, nil
	if err := x.store.ScanVectors(ctx, x.model, nil, x.add); err != nil {
		x.loaded = false
		return err
	}
	x.loaded, x.seq = true, head
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
	x.meta = append(x.meta, vecMeta{rid: e.RID, id: e.ID, class: x.class(vecClass{scope: e.Scope, key: e.ScopeKey, typ: e.Type,
		archived: e.Archived, reviewed: e.Reviewed})})
	start := len(x.slab)
	x.slab = append(x.slab, make([]float32, n)...)
	DecodeVec(e.Vec, x.slab[start:start+n])
	if x.folds() {
		fs := len(x.folded)
		x.folded = append(x.folded, make([]float32, foldDim)...)
		fold(x.slab[start:start+n], x.folded[fs:fs+foldDim])
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
		x.meta[i] = x.meta[last]
		copy(x.slab[i*x.dim:(i+1)*x.dim], x.slab[last*x.dim:(last+1)*x.dim])
		if x.folds() {
			copy(x.folded[i*foldDim:(i+1)*foldDim], x.folded[last*foldDim:(last+1)*foldDim])
		}
		x.pos[x.meta[i].rid] = i
	}
	x.meta = x.meta[:last]
	x.slab = x.slab[:last*x.dim]
	if x.folds() {
		x.folded = x.folded[:last*foldDim]
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
	allow := func(i int) bool { return allowed[x.meta[i].class] }
	if len(x.meta) < twoStageFrom || !x.folds() {
		return x.matches(x.exact(vec, limit, allow)), nil
	}
	return x.matches(x.twoStage(vec, limit, allow)), nil
}

// exact scores every allowed row in full.
func (x *Index) exact(vec []float32, limit int, allow func(int) bool) []cand {
	return x.scan(len(x.meta), limit, func(i int) (float32, bool) {
		if !allow(i) {
			return 0, false
		}
		return embed.Dot(vec, x.slab[i*x.dim:(i+1)*x.dim]), true
	})
}

// twoStage scores the folded vectors, then the best few hundred in full.
func (x *Index) twoStage(vec []float32, limit int, allow func(int) bool) []cand {
	qf := make([]float32, foldDim)
	fold(vec, qf)
	wide := max(8*limit, 400)
	first := x.scan(len(x.meta), wide, func(i int) (float32, bool) {
		if !allow(i) {
			return 0, false
		}
		return embed.Dot(qf, x.folded[i*foldDim:(i+1)*foldDim]), true
	})
	var second topK
	second.limit = limit
	for _, c := range first {
		second.offer(c.i, embed.Dot(vec, x.slab[c.i*x.dim:(c.i+1)*x.dim]))
	}
	return second.sorted()
}

// scan scores rows 0..n-1 with score (false skips a row), split over the cores, and returns the
// best limit, best first.
func (x *Index) scan(n, limit int, score func(i int) (float32, bool)) []cand {
	workers := 1
	if n >= twoStageFrom/2 {
		workers = min(runtime.GOMAXPROCS(0), 4)
	}
	parts := make([]topK, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := w*n/workers, (w+1)*n/workers
		wg.Add(1)
		go func(t *topK) {
			defer wg.Done()
			t.limit = limit
			for i := lo; i < hi; i++ {
				if s, ok := score(i); ok {
					t.offer(i, s)
				}
			}
		}(&parts[w])
	}
	wg.Wait()
	var all topK
	all.limit = limit
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

type cand struct {
	i int
	s float32
}

// topK keeps the limit best candidates in a min-heap.
type topK struct {
	items []cand
	limit int
}

func (t topK) Len() int           { return len(t.items) }
func (t topK) Less(i, j int) bool { return t.items[i].s < t.items[j].s }
func (t topK) Swap(i, j int)      { t.items[i], t.items[j] = t.items[j], t.items[i] }
func (t *topK) Push(v any)        { t.items = append(t.items, v.(cand)) }
func (t *topK) Pop() any          { n := len(t.items) - 1; v := t.items[n]; t.items = t.items[:n]; return v }

// sorted empties the heap into a slice, best first.
func (t *topK) sorted() []cand {
	out := make([]cand, len(t.items))
	for k := len(t.items) - 1; k >= 0; k-- {
		out[k] = heap.Pop(t).(cand)
	}
	return out
}

func (t *topK) offer(i int, s float32) {
	if len(t.items) < t.limit {
		heap.Push(t, cand{i, s})
		return
	}
	if s > t.items[0].s {
		t.items[0] = cand{i, s}
		heap.Fix(t, 0)
	}
}
