package probe

import (
	"reflect"

	"github.com/rules-capture/rules_capture/runtime/value"
)

// Values observed code reflects over (docs/design/reflection.md): in a
// package that reflects over values from outside the observed set,
// reflection runs natively in the capture and in replay, so replay must
// hand the code the same value, with its real dynamic type and the state it
// had, not a placeholder. The transform records the parameters of the
// package's incalls that can carry such a value (an empty interface, a type
// parameter, a pointer to another package's type, and slices, arrays and
// maps of those) with EncodeReflected, and what the call may have written
// through them with Written.

// EncodeReflected appends v deeply: a pointer to another package's type is
// written with its pointee, at every sight (the state external code gave
// it since it last crossed), so that replay rebuilds the object it
// reflects over. Pointers to observed objects keep their first-sight rule.
func EncodeReflected[T any](s *Stream, v T) {
	s.enc.Objects = s.objectTable()
	s.enc.Deep, s.enc.Refresh = true, true
	value.Encode(&s.enc, v)
	s.enc.Deep, s.enc.Refresh = false, false
	s.enc.ResetRefresh()
}

// Written appends, after an incall, the value of a parameter recorded with
// EncodeReflected when the call could have written through it (its dynamic
// value is a non-nil pointer, map or slice: a decoder setting fields of the
// caller's struct), else nil. The replayed call appends the same, so replay
// compares what the code wrote with what the capture's code wrote, at the
// RETURN_IN.
func Written[T any](s *Stream, v T) {
	switch rv := reflect.ValueOf(any(v)); rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice:
		if !rv.IsNil() {
			EncodeReflected(s, v)
			return
		}
	}
	s.enc.Buf = append(s.enc.Buf, value.TagNil)
}
