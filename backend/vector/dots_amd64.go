//go:build amd64 && !purego

package vector

import "golang.org/x/sys/cpu"

// hasAVX2 selects the assembly kernel; without AVX2 the portable one runs.
var hasAVX2 = cpu.X86.HasAVX2

// dotsInt8AVX2 is dotsInt8 for n rows in AVX2 (dots_amd64.s).
//
//go:noescape
func dotsInt8AVX2(q *int16, rows *int8, out *int32, n int)

// dotsInt8 sets out[r] to the dot product of the quantized query q with quantized row r of
// rows, for each r < len(out); rows holds at least len(out)·foldDim levels.
func dotsInt8(q *[foldDim]int16, rows []int8, out []int32) {
	if !hasAVX2 || len(out) == 0 {
		dotsInt8Go(q, rows, out)
		return
	}
	_ = rows[len(out)*foldDim-1] // the kernel reads this far
	dotsInt8AVX2(&q[0], &rows[0], &out[0], len(out))
}
