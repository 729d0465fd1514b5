//go:build !amd64 || purego

package vector

// hasAVX2 is false where there is no assembly kernel.
const hasAVX2 = false

// dotsInt8 sets out[r] to the dot product of the quantized query q with quantized row r of
// rows, for each r < len(out).
func dotsInt8(q *[foldDim]int16, rows []int8, out []int32) { dotsInt8Go(q, rows, out) }
