package probe

import (
	"reflect"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/value"
)

type boundErr struct {
	Line int
	Msg  string
}

func (e *boundErr) Error() string { return e.Msg }

// TestTypedErrorCopiesOwned: an error crossing by its pointee counts as
// the code's own, in the capture where it is encoded and in replay where
// its copy is decoded, so that an outcall completing it in place (expr's
// `fileError.Bind(source)`) records what it wrote. Replay of a log of
// LastUnwrittenTypedErrorFormat or before, whose capture did not count it,
// does not count the copy either.
func TestTypedErrorCopiesOwned(t *testing.T) {
	old := play
	defer func() { play = old }()
	value.RegisterType(reflect.TypeFor[*boundErr]())

	play = nil
	// A checkpoint's state is no event: replay of the whole log does not
	// encode it, so its encoding marks nothing.
	kept := &boundErr{Msg: "kept"}
	state := value.Encoder{Unmarked: true}
	state.EncodeError(kept)
	if owned(kept) {
		t.Fatal("capture: an error a checkpoint holds is owned")
	}
	err := &boundErr{Msg: "unbound"}
	var e value.Encoder
	e.EncodeError(err)
	if e.Buf[0] != value.TagTypedError {
		t.Fatalf("encoded with tag %d, want a typed error", e.Buf[0])
	}
	if !owned(err) {
		t.Fatal("capture: the encoded error is not owned")
	}
	for _, format := range []int{LastUnwrittenTypedErrorFormat, LastUnwrittenTypedErrorFormat + 1} {
		play = &player{format: format}
		d := value.Decoder{Buf: e.Buf}
		got := d.DecodeError()
		if d.Err != nil {
			t.Fatalf("format %d: %v", format, d.Err)
		}
		cp, ok := got.(*boundErr)
		if !ok || cp == err || cp.Msg != "unbound" {
			t.Fatalf("format %d: decoded %#v", format, got)
		}
		if want := format > LastUnwrittenTypedErrorFormat; owned(cp) != want {
			t.Errorf("format %d: the copy owned %v, want %v", format, owned(cp), want)
		}
	}
}
