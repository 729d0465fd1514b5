//go:build amd64 && !purego

#include "textflag.h"

// func dotsInt8AVX2(q *int16, rows *int8, out *int32, n int)
//
// For each of n rows of 64 int8 levels: widen them to int16 in four groups of 16, multiply
// with the query's 64 int16 levels held in Y0–Y3 and add adjacent pairs (VPMADDWD, exact in
// int32), sum the four results and then the eight lanes, and store one int32.
TEXT ·dotsInt8AVX2(SB), NOSPLIT, $0-32
	MOVQ q+0(FP), AX
	MOVQ rows+8(FP), SI
	MOVQ out+16(FP), DI
	MOVQ n+24(FP), CX
	TESTQ CX, CX
	JLE done
	VMOVDQU 0(AX), Y0
	VMOVDQU 32(AX), Y1
	VMOVDQU 64(AX), Y2
	VMOVDQU 96(AX), Y3

loop:
	VPMOVSXBW 0(SI), Y4
	VPMOVSXBW 16(SI), Y5
	VPMOVSXBW 32(SI), Y6
	VPMOVSXBW 48(SI), Y7
	VPMADDWD Y0, Y4, Y4
	VPMADDWD Y1, Y5, Y5
	VPMADDWD Y2, Y6, Y6
	VPMADDWD Y3, Y7, Y7
	VPADDD Y5, Y4, Y4
	VPADDD Y7, Y6, Y6
	VPADDD Y6, Y4, Y4
	VEXTRACTI128 $1, Y4, X5
	VPADDD X5, X4, X4
	VPSHUFD $0x4E, X4, X5
	VPADDD X5, X4, X4
	VPSHUFD $0xB1, X4, X5
	VPADDD X5, X4, X4
	VMOVD X4, 0(DI)
	ADDQ $64, SI
	ADDQ $4, DI
	DECQ CX
	JNZ loop
	VZEROUPPER

done:
	RET
