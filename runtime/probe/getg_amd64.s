#include "textflag.h"

// func getg() uintptr: the current goroutine's g pointer, used only as a
// key for the goroutine's stream (never dereferenced).
TEXT ·getg(SB),NOSPLIT,$0-8
	MOVQ (TLS), AX
	MOVQ AX, ret+0(FP)
	RET

// func stackBounds() (lo, hi uintptr): the current goroutine's stack,
// [lo, hi). A runtime.g starts with its stack bounds (the runtime's
// assembly and every function prologue depend on that layout).
TEXT ·stackBounds(SB),NOSPLIT,$0-16
	MOVQ (TLS), AX
	MOVQ 0(AX), BX
	MOVQ 8(AX), CX
	MOVQ BX, lo+0(FP)
	MOVQ CX, hi+8(FP)
	RET
