package probe

import (
	"fmt"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

type outTally struct {
	Lines int
	Last  string
	seen  []string
}

// recordOut encodes what out appends on the capture's stream and returns
// the bytes.
func recordOut(t *testing.T, out func(s *Stream)) []byte {
	var b []byte
	withCapture(t, func(*[]eventlog.Event) {
		s := current()
		s.enc.Buf = s.enc.Buf[:0]
		out(s)
		b = append([]byte(nil), s.enc.Buf...)
	})
	return b
}

// TestSetMapKeepsTheMap: replay writes the recorded contents into the map
// the observed code holds, so every reference to it sees what the external
// code added, changed and deleted.
func TestSetMapKeepsTheMap(t *testing.T) {
	after := map[string][]string{"a": {"1", "2"}, "b": {"3"}}
	b := recordOut(t, func(s *Stream) { OutMap(s, after) })

	m := map[string][]string{"a": {"1"}, "gone": {"x"}}
	alias := m
	r := &Stream{dec: value.Decoder{Buf: b}}
	SetMap(r, m)
	if r.dec.Err != nil || r.dec.Off != len(b) {
		t.Fatalf("decoded %d of %d bytes, err %v", r.dec.Off, len(b), r.dec.Err)
	}
	if !reflect.DeepEqual(alias, after) {
		t.Fatalf("map after SetMap = %v, want %v", alias, after)
	}
}

// TestSetOutPointeeWritesTheObject: the pointee of an owned receiver is
// written whole, unexported fields too, into the replayed code's object.
func TestSetOutPointeeWritesTheObject(t *testing.T) {
	after := &outTally{Lines: 3, Last: "z", seen: []string{"x", "y", "z"}}
	b := recordOut(t, func(s *Stream) { OutPointee(s, after) })

	var got outTally
	r := &Stream{dec: value.Decoder{Buf: b}}
	SetOutPointee(r, &got)
	if r.dec.Err != nil || r.dec.Off != len(b) {
		t.Fatalf("decoded %d of %d bytes, err %v", r.dec.Off, len(b), r.dec.Err)
	}
	if !reflect.DeepEqual(got, *after) {
		t.Fatalf("pointee after SetOutPointee = %+v, want %+v", got, *after)
	}
}

// TestOutWritesOfOlderLogs: a log of LastUnwrittenOutFormat or before holds
// no post-call contents of these, so replay reads nothing and leaves the
// memory as it was.
func TestOutWritesOfOlderLogs(t *testing.T) {
	old := play
	play = &player{format: LastUnwrittenOutFormat}
	defer func() { play = old }()
	m := map[string]int{"a": 1}
	var tally outTally
	r := &Stream{dec: value.Decoder{Buf: []byte{value.TagNil}}}
	SetMap(r, m)
	SetOutPointee(r, &tally)
	if r.dec.Off != 0 || len(m) != 1 || m["a"] != 1 || tally.Lines != 0 {
		t.Fatalf("read %d bytes; map %v, tally %+v", r.dec.Off, m, tally)
	}
}

// BenchmarkOutWrites: what an outcall pays after the call for a map it got
// (8 entries of a url.Values) and for an owned receiver's pointee.
func BenchmarkOutWrites(b *testing.B) {
	var seq uint64
	CaptureTo(func(*eventlog.Event) uint64 { seq++; return seq })
	defer CaptureTo(nil)
	values := map[string][]string{}
	for i := range 8 {
		values["key"+strconv.Itoa(i)] = []string{"value" + strconv.Itoa(i)}
	}
	tally := &outTally{Lines: 3, Last: "a line of text"}
	b.Run("map8", func(b *testing.B) {
		reportCPU(b)
		s := current()
		for i := 0; i < b.N; i++ {
			s.enc.Buf = s.enc.Buf[:0]
			OutMap(s, values)
		}
	})
	b.Run("pointee", func(b *testing.B) {
		reportCPU(b)
		s := current()
		for i := 0; i < b.N; i++ {
			s.enc.Buf = s.enc.Buf[:0]
			OutPointee(s, tally)
		}
	})
}

// TestMarkedOutWritesOfOlderLogs: a log of LastUnmarkedOutFormat or before
// holds no post-call pointee of an argument pointing to an observed struct,
// of a promoted method's embedded receiver, or of an address marked owned
// at run time, so replay reads nothing and leaves the memory as it was; a
// newer log's pointee is written back.
func TestMarkedOutWritesOfOlderLogs(t *testing.T) {
	old := play
	defer func() { play = old }()
	tally := &outTally{Lines: 1}
	Own(tally)
	play = &player{format: LastUnmarkedOutFormat}
	r := &Stream{dec: value.Decoder{Buf: []byte{value.TagNil}}}
	SetMarkedOutPointee(r, tally)
	SetOutPointeeIfOwned(r, tally)
	if r.dec.Off != 0 || tally.Lines != 1 {
		t.Fatalf("format %d: read %d bytes; tally %+v", LastUnmarkedOutFormat, r.dec.Off, tally)
	}

	var seq uint64
	CaptureTo(func(*eventlog.Event) uint64 { seq++; return seq })
	w := current()
	w.enc.Buf = w.enc.Buf[:0]
	Pointee(w, &outTally{Lines: 7, Last: "x"})
	buf := append([]byte(nil), w.enc.Buf...)
	CaptureTo(nil)
	play = &player{format: eventlog.FormatVersion}
	r = &Stream{dec: value.Decoder{Buf: buf}}
	SetMarkedOutPointee(r, tally)
	if tally.Lines != 7 || tally.Last != "x" {
		t.Fatalf("format %d: tally %+v, want the recorded pointee", eventlog.FormatVersion, tally)
	}
}

// TestRebuiltOutWritesOfOlderLogs: a log of LastUnrebuiltOutFormat or
// before holds no post-call pointee of memory a reflected argument brought
// in or of memory reflect.New made, so replay counts neither as owned and
// reads nothing; replay of a newer log counts both.
func TestRebuiltOutWritesOfOlderLogs(t *testing.T) {
	old := play
	defer func() { play = old }()
	x := &struct {
		When time.Time
		N    int64
	}{}
	markRebuilt(any(x))

	play = &player{format: LastUnrebuiltOutFormat}
	made := OwnNew(reflect.New(reflect.TypeFor[outTally]()))
	if owned(&x.N) || owned(made.Interface()) {
		t.Fatalf("format %d: rebuilt memory owned %v, reflect.New's %v", LastUnrebuiltOutFormat, owned(&x.N), owned(made.Interface()))
	}
	r := &Stream{dec: value.Decoder{Buf: []byte{value.TagNil}}}
	SetOutPointeeIfOwned(r, &x.N)
	if r.dec.Off != 0 {
		t.Fatalf("format %d: read %d bytes", LastUnrebuiltOutFormat, r.dec.Off)
	}

	play = &player{format: eventlog.FormatVersion}
	made = OwnNew(reflect.New(reflect.TypeFor[outTally]()))
	if !owned(&x.N) || !owned(made.Interface()) {
		t.Fatalf("format %d: rebuilt memory owned %v, reflect.New's %v", eventlog.FormatVersion, owned(&x.N), owned(made.Interface()))
	}
}

// TestShallowObservedStructOfOlderLogs: a log of
// LastShallowObservedStructFormat or before records a parameter reflected
// over only through an observed struct (a struct without an outside
// pointer, as far as that format counted) as any other parameter, with
// nothing after the call; replay of it encodes it so, and other reflected
// parameters deeply as before.
func TestShallowObservedStructOfOlderLogs(t *testing.T) {
	old := play
	defer func() { play = old }()
	// An observed struct by value, or through a pointer to a type that
	// names no other package's type (the observed type itself would be
	// registered as observed in a replay build).
	type config struct{ Result any }
	type configPtr = *struct{ Result any }
	play = &player{format: LastShallowObservedStructFormat}
	if !shallowObservedStruct[config]() || !shallowObservedStruct[configPtr]() {
		t.Error("a struct parameter is recorded deeply in a format 9 log")
	}
	if shallowObservedStruct[*time.Time]() || shallowObservedStruct[map[string]any]() || shallowObservedStruct[[]*outTally]() || shallowObservedStruct[reflect.Value]() {
		t.Error("a parameter format 9 recorded deeply is recorded shallowly")
	}
	s := &Stream{}
	Written(s, configPtr(&struct{ Result any }{Result: new(int)}))
	if len(s.enc.Buf) != 0 {
		t.Errorf("format %d: Written appended %d bytes", LastShallowObservedStructFormat, len(s.enc.Buf))
	}
	play = &player{format: eventlog.FormatVersion}
	if shallowObservedStruct[config]() {
		t.Errorf("format %d: a struct parameter is recorded shallowly", eventlog.FormatVersion)
	}
}

type writtenStructErr struct{ msg string }

func (e writtenStructErr) Error() string { return e.msg }

type writtenPtrErr struct{ msg string }

func (e *writtenPtrErr) Error() string { return e.msg }

// TestWrittenPlainErrorIsNil: after an incall, a parameter holding an error
// recorded by its message is written as nil whatever its kind, in the
// capture (a struct or a pointer of the caller's) and in replay (the
// stand-in, a pointer): cast's ToString given a test file's struct error
// had nil recorded and its stand-in re-encoded ("different results").
// Logs of LastWrittenPlainErrorFormat and before keep the kind's rule.
func TestWrittenPlainErrorIsNil(t *testing.T) {
	old := play
	defer func() { play = old }()
	nilOnly := func(name string, v any) {
		t.Helper()
		s := &Stream{}
		Written(s, v)
		if len(s.enc.Buf) != 1 || s.enc.Buf[0] != value.TagNil {
			t.Errorf("%s: Written appended % x, want nil", name, s.enc.Buf)
		}
	}
	standIn := &value.Error{Type: "example.com/p_test.fu", Msg: "bar"}
	for _, format := range []int{0, eventlog.FormatVersion} {
		play = nil
		if format != 0 {
			play = &player{format: format}
		}
		nilOnly(fmt.Sprintf("format %d, struct error", format), writtenStructErr{"bar"})
		nilOnly(fmt.Sprintf("format %d, pointer error", format), &writtenPtrErr{"bar"})
		nilOnly(fmt.Sprintf("format %d, stand-in", format), error(standIn))
	}
	play = &player{format: LastWrittenPlainErrorFormat}
	if !writtenPlainErrorsByKind() {
		t.Fatalf("format %d: plain errors are not written by their kind", LastWrittenPlainErrorFormat)
	}
	nilOnly("older format, struct error", writtenStructErr{"bar"})
	play = &player{format: eventlog.FormatVersion}
	if writtenPlainErrorsByKind() {
		t.Fatalf("format %d: plain errors are written by their kind", eventlog.FormatVersion)
	}
}

// TestMadeOutWritesOfOlderLogs: a log of LastUnmadeOutFormat or before
// holds no post-call pointee of memory reflect.MakeSlice or reflect.Append
// made, nor of an owned pointer held by value in an outcall's receiver, so
// replay of it counts neither and reads nothing; replay of a newer log
// counts both.
func TestMadeOutWritesOfOlderLogs(t *testing.T) {
	old := play
	defer func() { play = old }()
	type counter struct {
		calls *int64
		body  string
	}
	calls := new(int64)
	markRebuilt(any(calls))
	held := counter{calls: calls}

	play = &player{format: LastUnmadeOutFormat}
	made := OwnMade(reflect.MakeSlice(reflect.TypeFor[[]outTally](), 3, 3))
	if owned(made.Index(2).Addr().Interface()) {
		t.Fatalf("format %d: reflect.MakeSlice's memory owned", LastUnmadeOutFormat)
	}
	r := &Stream{dec: value.Decoder{Buf: []byte{value.TagNil}}}
	SetOutPointeeIfOwned(r, held)
	if r.dec.Off != 0 {
		t.Fatalf("format %d: read %d bytes", LastUnmadeOutFormat, r.dec.Off)
	}

	play = &player{format: LastUnmadeOutFormat + 1}
	made = OwnMade(reflect.MakeSlice(reflect.TypeFor[[]outTally](), 3, 3))
	grown := OwnMade(reflect.Append(made, reflect.ValueOf(outTally{})))
	if !owned(made.Index(2).Addr().Interface()) || !owned(grown.Index(3).Addr().Interface()) {
		t.Fatalf("format %d: reflect.MakeSlice's memory owned %v, reflect.Append's %v", LastUnmadeOutFormat+1,
			owned(made.Index(2).Addr().Interface()), owned(grown.Index(3).Addr().Interface()))
	}
	var n int
	heldOwned(held, func(p any) {
		if p.(*int64) != calls {
			t.Errorf("held pointer %p, want %p", p, calls)
		}
		n++
	})
	if n != 1 {
		t.Fatalf("format %d: %d held owned pointers, want 1", LastUnmadeOutFormat+1, n)
	}
}
