package vector

import "math"

// The first stage of a large search reads every visible row, so its rows are kept small: each
// vector folded to foldDim floats (see fold) and quantized to int8 with a scale of its own,
// 64 bytes a row instead of 256 (a quarter of the memory traffic at 100k rows). The query is
// folded the same way and quantized to int16, whose products with int8 sum exactly in int32
// (64 × 127 × 32767 < 2³¹), so the kernels agree to the bit with each other; the only
// approximation is the row's rounding to 127 levels, well below what folding already blurs,
// and the second stage scores the survivors again in full.

const (
	rowLevels   = 127   // int8 levels of a quantized row: −127..127
	queryLevels = 32767 // int16 levels of a quantized query
)

// fold adds the foldDim-wide blocks of v into dst; a last block shorter than foldDim adds into
// the first dimensions (v'[i] = Σ v[i+k·foldDim]: the same features hashed into fewer buckets).
func fold(v, dst []float32) {
	for i := range dst {
		dst[i] = 0
	}
	for off := 0; off < len(v); off += foldDim {
		blk := v[off:min(off+foldDim, len(v))]
		for i, f := range blk {
			dst[i] += f
		}
	}
}

// maxAbs is the largest magnitude in v (0 for an empty or zero vector; NaNs are ignored).
func maxAbs(v []float32) float32 {
	var m float32
	for _, f := range v {
		if a := float32(math.Abs(float64(f))); a > m {
			m = a
		}
	}
	return m
}

// quantizeRow writes v (foldDim wide) as int8 levels into dst and returns the scale that turns
// a level back into a value (0 for a zero vector, whose levels are all 0).
func quantizeRow(v []float32, dst []int8) float32 {
	m := maxAbs(v)
	if m == 0 || math.IsInf(float64(m), 0) {
		clear(dst)
		return 0
	}
	inv := rowLevels / m
	for i, f := range v {
		dst[i] = int8(clampLevel(f*inv, rowLevels))
	}
	return m / rowLevels
}

// quantizeQuery writes v (foldDim wide) as int16 levels into dst; the query's scale is the
// same for every row, so it is not needed to rank them.
func quantizeQuery(v []float32, dst *[foldDim]int16) {
	m := maxAbs(v)
	if m == 0 || math.IsInf(float64(m), 0) {
		clear(dst[:])
		return
	}
	inv := queryLevels / m
	for i, f := range v {
		dst[i] = int16(clampLevel(f*inv, queryLevels))
	}
}

// clampLevel rounds x to the nearest integer within ±levels (NaN gives 0).
func clampLevel(x float32, levels int32) int32 {
	if x != x {
		return 0
	}
	r := int32(math.Round(float64(max(min(x, float32(levels)), -float32(levels)))))
	return r
}

// dotsInt8Go is the portable kernel: out[r] = Σ q[k]·rows[r·foldDim+k] for each r < len(out).
func dotsInt8Go(q *[foldDim]int16, rows []int8, out []int32) {
	rows = rows[:len(out)*foldDim]
	for r := range out {
		row := (*[foldDim]int8)(rows[r*foldDim : (r+1)*foldDim])
		var s0, s1, s2, s3 int32
		for k := 0; k < foldDim; k += 4 {
			s0 += int32(q[k]) * int32(row[k])
			s1 += int32(q[k+1]) * int32(row[k+1])
			s2 += int32(q[k+2]) * int32(row[k+2])
			s3 += int32(q[k+3]) * int32(row[k+3])
		}
		out[r] = s0 + s1 + s2 + s3
	}
}
