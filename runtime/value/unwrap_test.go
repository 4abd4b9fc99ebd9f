package value

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
)

// A recorded error that wrapped one error (fmt.Errorf with one %w) stands
// in with Unwrap() error, which errors.Unwrap follows (pkg/errors' Unwrap
// of a *fmt.wrapError); one that wrapped several keeps Unwrap() []error.
// Both re-encode as recorded.
func TestErrorStandInUnwrap(t *testing.T) {
	inner := errors.New("inner")
	other := errors.New("other")
	for _, c := range []struct {
		err  error
		want error // errors.Unwrap of the stand-in
	}{
		{fmt.Errorf("wrap: %w", inner), inner},
		{fmt.Errorf("wrap: %w, %w", inner, other), nil},
		{errors.New("plain"), nil},
	} {
		e := &Encoder{Objects: newTable()}
		e.EncodeError(c.err)
		d := &Decoder{Buf: e.Buf, Resolver: newTable()}
		got := d.DecodeError()
		if d.Err != nil || got.Error() != c.err.Error() {
			t.Fatalf("%v: decoded %#v, %v", c.err, got, d.Err)
		}
		if u := errors.Unwrap(got); (u == nil) != (c.want == nil) || (u != nil && u.Error() != c.want.Error()) {
			t.Errorf("%v: errors.Unwrap of the stand-in = %v, want %v", c.err, u, c.want)
		}
		if c.want != nil && !errors.Is(got, got) {
			t.Errorf("%v: the stand-in is not itself", c.err)
		}
		again := &Encoder{Objects: newTable()}
		again.EncodeError(got)
		if !bytes.Equal(again.Buf, e.Buf) {
			t.Errorf("%v: re-encoded differently:\n%q\n%q", c.err, again.Buf, e.Buf)
		}
	}
}
