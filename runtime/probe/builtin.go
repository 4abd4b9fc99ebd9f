package probe

import "cmp"

// The predeclared identifiers under names no package can hide. The code the
// transform generates is part of the observed package, so a declaration of
// the package (bitset's func max(x, y uint) uint, a func any(...) or
// type error struct) hides the predeclared identifier of the same name in
// the generated file too. Where the package declares one that the
// generated file uses, the transform spells it as one of these.

// Predeclared types.
type (
	Builtin_any        = any
	Builtin_bool       = bool
	Builtin_byte       = byte
	Builtin_comparable = comparable
	Builtin_complex64  = complex64
	Builtin_complex128 = complex128
	Builtin_error      = error
	Builtin_float32    = float32
	Builtin_float64    = float64
	Builtin_int        = int
	Builtin_int8       = int8
	Builtin_int16      = int16
	Builtin_int32      = int32
	Builtin_int64      = int64
	Builtin_rune       = rune
	Builtin_string     = string
	Builtin_uint       = uint
	Builtin_uint8      = uint8
	Builtin_uint16     = uint16
	Builtin_uint32     = uint32
	Builtin_uint64     = uint64
	Builtin_uintptr    = uintptr
)

// Predeclared constants: untyped, as true and false are.
const (
	Builtin_true  = true
	Builtin_false = false
)

// Builtin functions, for the operand types the generated code applies them
// to (slices, channels, ordered values). A generated call of a builtin
// without a counterpart here, in a package that hides it, is an internal
// error of the transform, never a call of the package's function.

func Builtin_len[S ~[]E, E any](s S) int { return len(s) }

func Builtin_cap[S ~[]E, E any](s S) int { return cap(s) }

func Builtin_copy[D ~[]E, S ~[]E, E any](dst D, src S) int { return copy(dst, src) }

func Builtin_min[T cmp.Ordered](x T, y ...T) T {
	for _, v := range y {
		x = min(x, v)
	}
	return x
}

func Builtin_max[T cmp.Ordered](x T, y ...T) T {
	for _, v := range y {
		x = max(x, v)
	}
	return x
}

func Builtin_close[C ~chan E | ~chan<- E, E any](c C) { close(c) }

// Builtin_panic panics with v. A call of it is no terminating statement, so
// the transform writes panic(v) as for { Builtin_panic(v) }, which is.
func Builtin_panic(v any) { panic(v) }
