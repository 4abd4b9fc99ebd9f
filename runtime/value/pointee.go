package value

import (
	"reflect"
	"unsafe"
)

// Pointers whose pointee the observed code reads natively.
//
// A pointer to a type outside the observed set crosses the boundary as a
// reference (TagRef): replay makes a placeholder for it, whose contents mean
// nothing, and answers every outcall on it from the log. That holds while
// the observed code only hands the pointer back to external code. It does
// not when the code reads the pointee itself:
//
//   - a pointer to a type of no package (`percentiles *[]float64`, `*int`)
//     has no methods: the code can only dereference it (`range *ps`), and no
//     outcall reads it for the code;
//   - a pointer to a math/big number (`*big.Int`) is read by the big
//     methods the transform runs natively on values the code holds
//     (`var q big.Int; q.QuoRem(x, y, &r)`: pure.go's pureMethodTypes) and
//     by copies (`aa = *x`).
//
// Such a pointer is written as an object (TagObject) with its pointee at
// every sight, not only the first: external code may have changed the
// pointee since it last crossed (an outcall `z.Mul(x, y)` writes z, which
// it returns), and replay writes the recorded pointee into its object for
// the ID, placeholder or the replayed code's own, before the code reads it.
// Leaving the set, the pointee is compared like any value, so replay also
// checks what the code computed into such an object.

// LastBarePointeeFormat is the last log format version that writes every
// pointer to a type outside the observed set as a bare reference (TagRef),
// pointees read natively included; a player of such a log encodes them so
// too (SetBarePointees), so that its values compare equal.
const LastBarePointeeFormat = 5

// barePointees: pointers whose pointee is written at every sight are
// written as bare references, as logs of LastBarePointeeFormat and before
// hold them. Set by replay of such a log before any stream runs.
var barePointees bool

// SetBarePointees makes the encoders write pointers to types of no package
// and to math/big numbers as bare references (bare true) or with their
// pointee at every sight (false, the default).
func SetBarePointees(bare bool) { barePointees = bare }

// pointeeEveryTime reports whether a pointer to el is written with its
// pointee at every sight: el is a type of no package that is not itself a
// reference (a slice, array, map, unnamed struct or a predeclared scalar
// type), or one of the math/big numbers.
func pointeeEveryTime(el reflect.Type) bool {
	if el.PkgPath() == "" {
		switch el.Kind() {
		case reflect.Pointer, reflect.Interface, reflect.Func, reflect.Chan, reflect.UnsafePointer:
			return false
		}
		return true
	}
	return el.PkgPath() == "math/big" && bigNumbers[el.Name()]
}

// DeepPointee, if set, is called with each pointer to an object of a type
// outside the observed set whose pointee a Refresh encoding writes: an
// object that observed code reflecting over values from outside reads
// natively (probe: such memory counts as the code's own, and a checkpoint
// does not hold its contents). Set once, before any encoding.
var DeepPointee func(v reflect.Value)

// TypedErrorPointee, if set, is called with each non-nil pointer of an
// error written by its pointee (TagTypedError: a registered error type
// that points to a type of no observed package): by the encoder with the
// error it writes, and by the decoder with the new pointer it makes. The
// error's object in replay is a copy, which no outcall answered from the
// log writes (expr's `fileError.Bind(source)` filling in the line and the
// snippet); the probe counts such memory as the code's own, so that an
// outcall getting it records its pointee after the call, and both sides
// mark it at the same events. Set once, before any encoding.
var TypedErrorPointee func(v reflect.Value)

// DeepEveryTimePointee, if set, is called as DeepPointee is, with each
// pointer written with its pointee at every sight (pointeeWrittenEveryTime:
// a `*int` a test's value holds) that a Refresh encoding writes. Set once,
// before any encoding.
var DeepEveryTimePointee func(v reflect.Value)

// pointeeWrittenEveryTime reports whether the encoders write a pointer of
// type t (a pointer type) with its pointee at every sight. A TagNil after
// such an object is then its pointee's value (a nil slice or map, which
// the caller set since the last sight: mapstructure's `resultWeak = nil`
// between two WeakDecode(input, &resultWeak)), not the absence of
// contents that TagNil means after an object seen before.
func pointeeWrittenEveryTime(t reflect.Type) bool {
	return !barePointees && pointeeEveryTime(t.Elem())
}

// bigNumbers: the math/big types whose methods the transform runs natively
// on values the observed code holds.
var bigNumbers = map[string]bool{"Int": true, "Float": true, "Rat": true}

// pointeeObject writes the non-nil pointer v (to ptr, of plan pl) as an
// object with its pointee. A pointee that holds a pointer to itself (an
// `[]any` holding its own address) is written down to MaxDepth, where the
// encoding truncates it, as any value nested that deep.
func (e *Encoder) pointeeObject(pl *encPlan, v reflect.Value, ptr unsafe.Pointer, depth int) {
	e.refNamed(TagObject, v, pl.name, true)
	if e.Deep && e.Refresh && DeepEveryTimePointee != nil {
		DeepEveryTimePointee(v)
	}
	el := pl.ptrEl.Load()
	if el == nil {
		el = planFor(pl.t.Elem())
		pl.ptrEl.Store(el)
	}
	e.at(el, ptr, depth+1)
}
