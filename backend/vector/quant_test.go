package vector

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"engram/backend/embed"
	"engram/backend/memory"
)

// dotsRef is the plain definition of the first-stage kernels, in int64.
func dotsRef(q *[foldDim]int16, rows []int8, n int) []int64 {
	out := make([]int64, n)
	for r := 0; r < n; r++ {
		for k := 0; k < foldDim; k++ {
			out[r] += int64(q[k]) * int64(rows[r*foldDim+k])
		}
	}
	return out
}

func TestDotsKernelsAgree(t *testing.T) {
	t.Logf("assembly kernel in use: %v", hasAVX2)
	r := rand.New(rand.NewPCG(1, 2))
	extremes := func(q *[foldDim]int16, rows []int8, qv int16, rv int8) {
		for k := range q {
			q[k] = qv
		}
		for k := range rows {
			rows[k] = rv
		}
	}
	cases := []struct {
		name string
		n    int
		fill func(q *[foldDim]int16, rows []int8)
	}{
		{"no rows", 0, func(q *[foldDim]int16, rows []int8) {}},
		{"one row, random", 1, nil},
		{"odd count, random", 7, nil},
		{"more than a block", scanBlock + 3, nil},
		{"largest positive sums", 3, func(q *[foldDim]int16, rows []int8) { extremes(q, rows, 32767, 127) }},
		{"largest negative sums", 3, func(q *[foldDim]int16, rows []int8) { extremes(q, rows, 32767, -127) }},
		{"outside the quantizers' range", 2, func(q *[foldDim]int16, rows []int8) { extremes(q, rows, -32768, -128) }},
		{"zero query", 5, func(q *[foldDim]int16, rows []int8) {
			for k := range rows {
				rows[k] = int8(r.IntN(255) - 127)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var q [foldDim]int16
			rows := make([]int8, c.n*foldDim)
			if c.fill != nil {
				c.fill(&q, rows)
			} else {
				for k := range q {
					q[k] = int16(r.IntN(65535) - 32767)
				}
				for k := range rows {
					rows[k] = int8(r.IntN(255) - 127)
				}
			}
			want := dotsRef(&q, rows, c.n)
			fast, slow := make([]int32, c.n), make([]int32, c.n)
			dotsInt8(&q, rows, fast)
			dotsInt8Go(&q, rows, slow)
			for i := range want {
				if int64(fast[i]) != want[i] || int64(slow[i]) != want[i] {
					t.Fatalf("row %d: kernel %d, portable %d, want %d", i, fast[i], slow[i], want[i])
				}
			}
		})
	}
}

func TestDotsKernelReadsOnlyItsRows(t *testing.T) {
	// A sub-slice: the kernel must score exactly len(out) rows from where rows starts.
	var q [foldDim]int16
	for k := range q {
		q[k] = int16(k + 1)
	}
	rows := make([]int8, 4*foldDim)
	for k := range rows {
		rows[k] = int8(k/foldDim + 1) // row r holds r+1 everywhere
	}
	out := []int32{-1, -1, 99}
	dotsInt8(&q, rows[foldDim:], out[:2])
	sum := int32(foldDim * (foldDim + 1) / 2)
	if out[0] != 2*sum || out[1] != 3*sum || out[2] != 99 {
		t.Fatalf("got %v, want [%d %d 99]", out, 2*sum, 3*sum)
	}
}

func TestFold(t *testing.T) {
	for _, dim := range []int{64, 100, 256, 300} {
		v := make([]float32, dim)
		for i := range v {
			v[i] = float32(i + 1)
		}
		got := make([]float32, foldDim)
		fold(v, got)
		for i := 0; i < foldDim; i++ {
			var want float32
			for j := i; j < dim; j += foldDim {
				want += v[j]
			}
			if got[i] != want {
				t.Fatalf("dim %d: folded[%d] = %v, want %v", dim, i, got[i], want)
			}
		}
	}
}

func TestQuantizeRow(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	cases := []struct {
		name  string
		v     []float32
		scale float32
	}{
		{"zero vector", make([]float32, foldDim), 0},
		{"one spike", spike(5, -0.5), 0.5 / 127},
		{"mixed", ramp(), 1.0 / 127},
		{"not a number left out", append(ramp()[:foldDim-1], nan), 1.0 / 127},
		{"infinity", append(ramp()[:foldDim-1], inf), 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := make([]int8, foldDim)
			for i := range q {
				q[i] = 9 // must be overwritten
			}
			scale := quantizeRow(c.v, q)
			if math.Abs(float64(scale-c.scale)) > 1e-9 {
				t.Fatalf("scale %v, want %v", scale, c.scale)
			}
			for i, f := range c.v {
				if scale == 0 || f != f {
					if q[i] != 0 {
						t.Fatalf("level %d = %d, want 0", i, q[i])
					}
					continue
				}
				if q[i] < -rowLevels {
					t.Fatalf("level %d = %d below −%d", i, q[i], rowLevels)
				}
				if d := math.Abs(float64(float32(q[i])*scale - f)); d > float64(scale)/2+1e-7 {
					t.Fatalf("level %d: %v back is %v, off by %v", i, f, float32(q[i])*scale, d)
				}
			}
		})
	}
}

func spike(at int, val float32) []float32 {
	v := make([]float32, foldDim)
	v[at] = val
	return v
}

// ramp runs from −1 to 1 over foldDim values.
func ramp() []float32 {
	v := make([]float32, foldDim)
	for i := range v {
		v[i] = -1 + 2*float32(i)/float32(foldDim-1)
	}
	return v
}

func TestQuantizedScoreTracksFoldedDot(t *testing.T) {
	// The first stage's score is the folded dot product up to the query's (shared) scale and
	// the rows' rounding.
	l := embed.NewLocal(0)
	q := l.Vector("where did we leave the deployment keys")
	var qf [foldDim]float32
	fold(q, qf[:])
	var qq [foldDim]int16
	quantizeQuery(qf[:], &qq)
	qscale := maxAbs(qf[:]) / queryLevels
	for i, text := range []string{"the deployment keys are in the vault", "a purple giraffe", "keys keys keys", ""} {
		v := l.Vector(text)
		var f [foldDim]float32
		fold(v, f[:])
		var row [foldDim]int8
		scale := quantizeRow(f[:], row[:])
		var d [1]int32
		dotsInt8(&qq, row[:], d[:])
		got := float64(d[0]) * float64(scale) * float64(qscale)
		want := float64(embed.Dot(qf[:], f[:]))
		if math.Abs(got-want) > 0.01 {
			t.Fatalf("text %d: quantized %.5f, folded %.5f", i, got, want)
		}
	}
}

// checkQuantized verifies that every row's quantized copy is the quantization of its own
// vector, whatever adds and removals happened.
func checkQuantized(t *testing.T, x *Index) {
	t.Helper()
	if len(x.qrows) != len(x.meta)*foldDim || len(x.qscale) != len(x.meta) || len(x.cls) != len(x.meta) {
		t.Fatalf("lengths: %d rows, %d levels, %d scales, %d classes", len(x.meta), len(x.qrows), len(x.qscale), len(x.cls))
	}
	for i, m := range x.meta {
		if x.pos[m.rid] != i {
			t.Fatalf("row %d (rid %d) is at %d in pos", i, m.rid, x.pos[m.rid])
		}
		var f [foldDim]float32
		fold(x.slab[i*x.dim:(i+1)*x.dim], f[:])
		var q [foldDim]int8
		s := quantizeRow(f[:], q[:])
		if s != x.qscale[i] || string(int8s(q[:])) != string(int8s(x.qrows[i*foldDim:(i+1)*foldDim])) {
			t.Fatalf("row %d (rid %d): quantized copy is stale", i, m.rid)
		}
	}
}

func int8s(v []int8) []byte {
	b := make([]byte, len(v))
	for i, x := range v {
		b[i] = byte(x)
	}
	return b
}

func TestTwoStageAgreesWithExactAfterRemovals(t *testing.T) {
	// A width that is not a multiple of foldDim, zero vectors among the rows, and removals
	// from the middle and the end: the two stages must still find what the exact scan finds.
	const dim = 100
	r := rand.New(rand.NewPCG(3, 4))
	x := &Index{model: "m", pos: map[int64]int{}}
	// Rows in clusters (a center plus noise), as texts on one topic are: the best matches of
	// a query near a center stand out from the rest, which is what the first stage relies on.
	n := twoStageFrom + 500
	centers := make([][]float32, 200)
	for c := range centers {
		centers[c] = make([]float32, dim)
		for k := range centers[c] {
			centers[c][k] = float32(r.NormFloat64())
		}
		embed.Normalize(centers[c])
	}
	for i := 0; i < n; i++ {
		v := make([]float32, dim)
		if i%53 != 0 { // some rows are zero vectors
			for k := range v {
				v[k] = centers[i%len(centers)][k] + 0.08*float32(r.NormFloat64())
			}
			embed.Normalize(v)
		}
		typ := memory.TypeUser
		if i%3 == 0 {
			typ = memory.TypeProject
		}
		x.add(memory.VectorEntry{RID: int64(i + 1), ID: fmt.Sprint(i + 1), Scope: memory.ScopeGlobal, Type: typ, Vec: EncodeVec(v)})
	}
	removed := map[int64]bool{}
	for _, rid := range []int64{1, 2, 777, int64(n), int64(n - 1), 12345} {
		x.remove(rid)
		removed[rid] = true
	}
	// Re-adding a row under an existing rid replaces it.
	repl := make([]float32, dim)
	repl[3] = 1
	x.add(memory.VectorEntry{RID: 500, ID: "500", Scope: memory.ScopeGlobal, Type: memory.TypeUser, Vec: EncodeVec(repl)})
	checkQuantized(t, x)
	if x.Len() != n-len(removed) {
		t.Fatalf("Len %d, want %d", x.Len(), n-len(removed))
	}
	allowed := make([]bool, len(x.classes))
	for k, c := range x.classes {
		allowed[k] = c.typ == memory.TypeUser
	}
	for qi := 0; qi < 20; qi++ {
		q, center := make([]float32, dim), centers[r.IntN(len(centers))]
		for k := range q {
			q[k] = center[k] + 0.05*float32(r.NormFloat64())
		}
		want := 10
		if qi == 0 {
			// The replaced row alone stands out; the rest of its list is noise.
			q, want = repl, 1
		}
		exact, two := x.exact(q, 10, allowed), x.twoStage(q, 10, allowed)
		if len(exact) != 10 || len(two) != 10 {
			t.Fatalf("query %d: %d exact, %d two-stage", qi, len(exact), len(two))
		}
		for k := range two {
			if k < want && exact[k] != two[k] {
				t.Fatalf("query %d rank %d: exact %+v, two-stage %+v", qi, k, exact[k], two[k])
			}
			m := x.meta[two[k].i]
			if removed[m.rid] || !allowed[x.cls[two[k].i]] {
				t.Fatalf("query %d: rid %d should not be found", qi, m.rid)
			}
		}
		if qi == 0 && x.meta[two[0].i].rid != 500 {
			t.Fatalf("the replaced row is not found first: %+v", x.meta[two[0].i])
		}
	}
	// A zero query scores every row 0: the answer is the lowest rows, in order, not a crash.
	zero := x.twoStage(make([]float32, dim), 3, allowed)
	if len(zero) != 3 || zero[0].s != 0 || zero[0].i > zero[1].i {
		t.Fatalf("zero query: %+v", zero)
	}
}

func TestSearchSplitsTheSameWayOnAnyCoreCount(t *testing.T) {
	// Equal scores are ordered by row, so the answer does not depend on how the scan is split.
	x := &Index{model: "m", pos: map[int64]int{}}
	v := make([]float32, 256)
	v[7] = 1
	for i := 0; i < twoStageFrom+100; i++ {
		x.add(memory.VectorEntry{RID: int64(i + 1), ID: fmt.Sprint(i + 1), Scope: memory.ScopeGlobal, Type: memory.TypeUser, Vec: EncodeVec(v)})
	}
	all := allowAll(x)
	one := x.split(len(x.meta), len(x.meta), 5, func(lo, hi int, t *topK) { x.firstStage(quantQuery(v), all, lo, hi, t) })
	many := x.split(len(x.meta), 1000, 5, func(lo, hi int, t *topK) { x.firstStage(quantQuery(v), all, lo, hi, t) })
	for k := range one {
		if one[k] != many[k] || one[k].i != k {
			t.Fatalf("rank %d: one part %+v, several %+v", k, one[k], many[k])
		}
	}
	got := x.twoStage(v, 5, all)
	for k, c := range got {
		if c.i != k {
			t.Fatalf("rank %d is row %d", k, c.i)
		}
	}
}

func quantQuery(v []float32) *[foldDim]int16 {
	var qf [foldDim]float32
	fold(v, qf[:])
	var qq [foldDim]int16
	quantizeQuery(qf[:], &qq)
	return &qq
}
