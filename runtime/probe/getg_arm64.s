#include "textflag.h"

// func getg() uintptr: the current goroutine's g pointer, used only as a
// key for the goroutine's stream (never dereferenced).
TEXT ·getg(SB),NOSPLIT,$0-8
	MOVD g, R0
	MOVD R0, ret+0(FP)
	RET
