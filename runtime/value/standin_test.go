package value

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"testing"
)

type standInStructErr struct{ msg string }

func (e standInStructErr) Error() string { return e.msg }

type standInStringErr string

func (e standInStringErr) Error() string { return string(e) }

type standInPtrErr struct{ msg string }

func (e *standInPtrErr) Error() string { return e.msg }

// TestErrorStandInKeepsPointerness: a recorded error of a type replay does
// not rebuild stands in as a pointer where the capture's error was one,
// and as a value where it was not, so that code following pointers by
// reflection (spf13/cast's indirect) stops at the same value; each stand-in
// re-encodes as recorded and keeps its message and wrapped error.
func TestErrorStandInKeepsPointerness(t *testing.T) {
	inner := errors.New("inner")
	for _, c := range []struct {
		err     error
		pointer bool
	}{
		{standInStructErr{"by value"}, false},
		{standInStringErr("a string"), false},
		{&standInPtrErr{"by pointer"}, true},
		{errors.New("errors.New's"), true},
		{fmt.Errorf("wrap: %w", inner), true},
		{errors.Join(inner, inner), true},
	} {
		e := &Encoder{Objects: newTable()}
		e.EncodeError(c.err)
		d := &Decoder{Buf: e.Buf, Resolver: newTable()}
		got := d.DecodeError()
		if d.Err != nil || got == nil || got.Error() != c.err.Error() {
			t.Fatalf("%T: decoded %#v, %v", c.err, got, d.Err)
		}
		if ptr := reflect.TypeOf(got).Kind() == reflect.Pointer; ptr != c.pointer {
			t.Errorf("%T: stand-in %T is a pointer: %v, want %v", c.err, got, ptr, c.pointer)
		}
		if (errors.Unwrap(got) == nil) != (errors.Unwrap(c.err) == nil) {
			t.Errorf("%T: errors.Unwrap of the stand-in = %v", c.err, errors.Unwrap(got))
		}
		if !errors.Is(got, got) {
			t.Errorf("%T: the stand-in is not itself", c.err)
		}
		again := &Encoder{Objects: newTable()}
		again.EncodeError(got)
		if !bytes.Equal(again.Buf, e.Buf) {
			t.Errorf("%T: re-encoded differently:\n%q\n%q", c.err, again.Buf, e.Buf)
		}
		if !PlainError(got) || !PlainError(c.err) {
			t.Errorf("%T: not a plain error: stand-in %v, the capture's %v", c.err, PlainError(got), PlainError(c.err))
		}
	}
}
