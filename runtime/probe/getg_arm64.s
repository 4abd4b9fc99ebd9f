#include "textflag.h"

// func getg() uintptr: the current goroutine's g pointer, used only as a
// key for the goroutine's stream (never dereferenced).
TEXT ·getg(SB),NOSPLIT,$0-8
	MOVD g, R0
	MOVD R0, ret+0(FP)
	RET

// func stackBounds() (lo, hi uintptr): the current goroutine's stack,
// [lo, hi). A runtime.g starts with its stack bounds (the runtime's
// assembly and every function prologue depend on that layout).
TEXT ·stackBounds(SB),NOSPLIT,$0-16
	MOVD 0(g), R0
	MOVD 8(g), R1
	MOVD R0, lo+0(FP)
	MOVD R1, hi+8(FP)
	RET
