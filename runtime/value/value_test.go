package value

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"
)

// table is an object table for tests: IDs by pointer, placeholders by ID.
type table struct {
	ids  map[unsafe.Pointer]uint64
	objs map[uint64]reflect.Value
	next uint64
}

func newTable() *table {
	return &table{ids: map[unsafe.Pointer]uint64{}, objs: map[uint64]reflect.Value{}}
}

func (t *table) ID(v reflect.Value, name string, _ bool) (uint64, bool, string) {
	p := v.UnsafePointer()
	if id, ok := t.ids[p]; ok {
		return id, false, name
	}
	t.next++
	t.ids[p] = t.next
	t.objs[t.next] = v
	return t.next, true, name
}
func (t *table) Recorded(unsafe.Pointer) (string, []byte, bool) { return "", nil, false }
func (t *table) Ref(id uint64, name string, typ reflect.Type) (reflect.Value, error) {
	if v, ok := t.objs[id]; ok && v.Type().AssignableTo(typ) {
		return v, nil
	}
	if typ.Kind() == reflect.Pointer {
		v := reflect.New(typ.Elem())
		t.objs[id] = v
		return v, nil
	}
	return reflect.Value{}, fmt.Errorf("no placeholder for %s", typ)
}
func (t *table) Object(id uint64) (reflect.Value, bool)    { v, ok := t.objs[id]; return v, ok }
func (t *table) Bind(id uint64, v reflect.Value, _ string) { t.objs[id] = v }
func (t *table) Stand(name string, raw []byte, typ reflect.Type) (reflect.Value, error) {
	return reflect.Value{}, fmt.Errorf("unknown type %s", name)
}

type point struct {
	X, Y int
	tag  string // unexported: struct values cross whole
}

type shape struct {
	Name   string
	Points []point
	Attrs  map[string]float64
	Grid   [2][2]int8
	Opt    *int
}

func roundTrip[T any](t *testing.T, v T) T {
	t.Helper()
	e := &Encoder{Objects: newTable()}
	Encode(e, v)
	d := &Decoder{Buf: e.Buf, Resolver: newTable()}
	got := Decode[T](d)
	if d.Err != nil {
		t.Fatalf("decode %#v: %v", v, d.Err)
	}
	if d.Off != len(e.Buf) {
		t.Fatalf("decode %#v: %d of %d bytes read", v, d.Off, len(e.Buf))
	}
	return got
}

func TestRoundTripValues(t *testing.T) {
	seven := 7
	cases := []any{
		true, false, 0, -1, math.MaxInt64, math.MinInt64, uint64(math.MaxUint64), uint8(200), 3.25, float32(1.5),
		complex(1, -2), "", "héllo", []byte(nil), []byte{}, []byte("abc"), []int(nil), []int{}, []string{"a", "b"},
		[3]int{1, 2, 3}, map[string]int{"b": 2, "a": 1}, map[int][]string{1: {"x"}},
		point{1, 2, "p"},
		shape{Name: "s", Points: []point{{1, 2, "a"}}, Attrs: map[string]float64{"w": 1.5}, Grid: [2][2]int8{{1, 2}, {3, 4}}, Opt: nil},
		time.Date(2024, 5, 6, 7, 8, 9, 10, time.UTC),
		time.Date(2024, 5, 6, 7, 8, 9, 10, time.FixedZone("CEST", 7200)),
		time.Duration(1500) * time.Millisecond,
	}
	for _, c := range cases {
		rv := reflect.ValueOf(c)
		e := &Encoder{Objects: newTable()}
		e.EncodeValue(rv)
		d := &Decoder{Buf: e.Buf, Resolver: newTable()}
		got := reflect.New(rv.Type()).Elem()
		d.DecodeValue(got)
		if d.Err != nil {
			t.Errorf("%T %v: %v", c, c, d.Err)
			continue
		}
		if tm, ok := c.(time.Time); ok {
			g := got.Interface().(time.Time)
			if !g.Equal(tm) || g.Format(time.RFC3339Nano) != tm.Format(time.RFC3339Nano) {
				t.Errorf("time %v came back as %v", tm, g)
			}
			continue
		}
		if !reflect.DeepEqual(got.Interface(), c) {
			t.Errorf("%T: %#v came back as %#v", c, c, got.Interface())
		}
	}
	_ = seven
}

func TestMapEncodingIsDeterministic(t *testing.T) {
	m := map[string]int{}
	for i := 0; i < 100; i++ {
		m[fmt.Sprint("k", i)] = i
	}
	var first []byte
	for i := 0; i < 20; i++ {
		e := &Encoder{}
		Encode(e, m)
		if first == nil {
			first = e.Buf
		} else if string(first) != string(e.Buf) {
			t.Fatal("map encodings differ between runs")
		}
	}
}

func TestPointersGetIDs(t *testing.T) {
	type node struct{ V int }
	a, b := &node{1}, &node{2}
	e := &Encoder{Objects: newTable()}
	Encode(e, []*node{a, b, a})
	s, err := Render(e.Buf)
	if err != nil {
		t.Fatal(err)
	}
	// Unobserved pointers are references: type and object ID, no contents.
	want := "[*github.com/rules-capture/rules_capture/runtime/value.node#1 *github.com/rules-capture/rules_capture/runtime/value.node#2 *github.com/rules-capture/rules_capture/runtime/value.node#1]"
	if s != want {
		t.Fatalf("got %s\nwant %s", s, want)
	}
	// Replay resolves both #1 to one placeholder.
	d := &Decoder{Buf: e.Buf, Resolver: newTable()}
	got := Decode[[]*node](d)
	if d.Err != nil || got[0] != got[2] || got[0] == got[1] {
		t.Fatalf("identity lost: %v %v", got, d.Err)
	}
}

type codeError struct{ Code int }

func (e *codeError) Error() string { return fmt.Sprint("code ", e.Code) }

func TestErrorsKeepIdentity(t *testing.T) {
	RegisterSentinel("io.EOF", io.EOF)
	RegisterSentinel("io/fs.ErrNotExist", fs.ErrNotExist)
	RegisterType(reflect.TypeFor[*codeError]())
	RegisterType(reflect.TypeFor[*fs.PathError]())
	chain := fmt.Errorf("read config: %w", &fs.PathError{Op: "open", Path: "/x", Err: fs.ErrNotExist})
	joined := errors.Join(io.EOF, &codeError{7})
	for _, err := range []error{io.EOF, chain, joined, errors.New("plain")} {
		got := roundTrip(t, err)
		if got.Error() != err.Error() {
			t.Errorf("message %q, want %q", got.Error(), err.Error())
		}
		for _, target := range []error{io.EOF, fs.ErrNotExist} {
			if errors.Is(got, target) != errors.Is(err, target) {
				t.Errorf("%v: errors.Is(%v) = %v in replay", err, target, !errors.Is(err, target))
			}
		}
		var pe *fs.PathError
		if errors.As(got, &pe) != errors.As(err, &pe) {
			t.Errorf("%v: errors.As(*fs.PathError) differs", err)
		}
		var ce *codeError
		if errors.As(got, &ce) != errors.As(err, &ce) || (ce != nil && ce.Code != 7) {
			t.Errorf("%v: errors.As(*codeError) differs (%v)", err, ce)
		}
	}
	if roundTrip(t, io.EOF) != io.EOF {
		t.Error("a sentinel must come back as the sentinel itself (err == io.EOF)")
	}
}

// An error whose own Is method matches a sentinel (syscall.Errno does for
// fs.ErrNotExist) keeps matching in replay.
type notFound struct{}

func (notFound) Error() string        { return "not found" }
func (notFound) Is(target error) bool { return target == fs.ErrNotExist }
func (notFound) Unwrap() error        { return nil }
func (notFound) Timeout() bool        { return false }
func TestErrorIsMethodKept(t *testing.T) {
	RegisterSentinel("io/fs.ErrNotExist", fs.ErrNotExist)
	got := roundTrip[error](t, notFound{})
	if !errors.Is(got, fs.ErrNotExist) {
		t.Fatal("errors.Is through the error's own Is method was lost")
	}
}

// Corrupt or hostile input gives an error, never a panic or a huge
// allocation.
func TestHostileInput(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		b := make([]byte, r.IntN(40))
		for j := range b {
			b[j] = byte(r.IntN(int(numTags) + 3))
		}
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("panic on %x: %v", b, p)
				}
			}()
			Render(b)
			d := &Decoder{Buf: b, Resolver: newTable()}
			Decode[shape](d)
			d = &Decoder{Buf: b, Resolver: newTable()}
			Decode[any](d)
			d = &Decoder{Buf: b, Resolver: newTable()}
			d.DecodeError()
		}()
	}
	// A length far beyond the input.
	d := &Decoder{Buf: []byte{TagList, 0xff, 0xff, 0xff, 0xff, 0x0f}}
	Decode[[]int](d)
	if d.Err == nil || !errors.Is(d.Err, ErrCorrupt) {
		t.Fatalf("want ErrCorrupt, got %v", d.Err)
	}
}

func TestRender(t *testing.T) {
	e := &Encoder{Objects: newTable()}
	Encode(e, 3)
	Encode(e, "abc")
	Encode(e, point{1, 2, "t"})
	Encode[any](e, point{3, 4, ""})
	Encode[error](e, errors.New("boom"))
	got, err := Render(e.Buf)
	if err != nil {
		t.Fatal(err)
	}
	// A struct's type is its slot's (no name); in an interface, the
	// interface value names the dynamic type.
	want := `3, "abc", {1, 2, "t"}, github.com/rules-capture/rules_capture/runtime/value.point({3, 4, ""}), error(*errors.errorString "boom")`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	// Format 1 values (TagStruct) render with their type name.
	old := &refEncoder{Objects: newTable()}
	old.encode(reflect.ValueOf(point{1, 2, "t"}), 0)
	if got, err := Render(old.Buf); err != nil || got != `github.com/rules-capture/rules_capture/runtime/value.point{1, 2, "t"}` {
		t.Fatalf("format 1 struct: %s %v", got, err)
	}
	if _, err := Render([]byte{TagString, 5, 'a'}); err == nil || !strings.Contains(err.Error(), "beyond end") {
		t.Fatalf("truncated string: %v", err)
	}
}

func BenchmarkEncodeScalars(b *testing.B) {
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = AppendInt(AppendInt(buf[:0], int64(i)), 2)
	}
}

// Times keep their monotonic clock reading: Sub answers in replay exactly
// as in the capture.
func TestTimeKeepsMonotonicReading(t *testing.T) {
	a := time.Now()
	b := a.Add(1500 * time.Nanosecond)
	ga, gb := roundTrip(t, a), roundTrip(t, b)
	if gb.Sub(ga) != b.Sub(a) || !ga.Equal(a) || ga.String() != a.String() {
		t.Fatalf("replayed times differ: %v %v (Sub %v want %v)", ga, a, gb.Sub(ga), b.Sub(a))
	}
}

// Out-parameters are encoded Deep: pointers the callee allocated inside the
// written memory carry their contents, so replay rebuilds what observed code
// reads through them; a pointer seen twice keeps one identity.
func TestDeepPointersCarryContents(t *testing.T) {
	limit := 5
	type cfg struct {
		Limit, Again *int
		Any          any
	}
	v := cfg{Limit: &limit, Again: &limit, Any: &limit}
	e := &Encoder{Objects: newTable(), Deep: true}
	Encode(e, v)
	d := &Decoder{Buf: e.Buf, Resolver: newTable()}
	RegisterType(reflect.TypeFor[*int]())
	got := Decode[cfg](d)
	if d.Err != nil {
		t.Fatal(d.Err)
	}
	if got.Limit == nil || *got.Limit != 5 || got.Again != got.Limit || got.Any.(*int) != got.Limit {
		t.Fatalf("got %+v", got)
	}
	// Without Deep a pointer to a named type of a package outside the
	// observed set is a reference only: contents are lost.
	type hexes struct{ A, B *hexagon }
	h := &hexagon{6}
	e = &Encoder{Objects: newTable()}
	Encode(e, hexes{h, h})
	d = &Decoder{Buf: e.Buf, Resolver: newTable()}
	if got := Decode[hexes](d); d.Err != nil || got.A == nil || got.A.n != 0 || got.B != got.A {
		t.Fatalf("shallow: got %+v, %v", got, d.Err)
	}
}

type sider interface{ Sides() int }
type temporaryErr interface{ Temporary() bool }

// hexagon is a type replay cannot rebuild by name (not registered).
type hexagon struct{ n int }

func (h *hexagon) Sides() int { return h.n }

type busyErr struct{}

func (busyErr) Error() string   { return "busy" }
func (busyErr) Temporary() bool { return true }

// tempStandIn is what the transform generates for errors that are also
// temporaryErr.
type recordedErr = Error // as probe.RecordedError: the field must not be named Error

type tempStandIn struct{ *recordedErr }

func (tempStandIn) Temporary() bool { panic("not called") }

type implTable struct {
	*table
	impl []string
}

func (t *implTable) RefImpl(id uint64, name string, typ reflect.Type, impl []string) (reflect.Value, error) {
	t.impl = impl
	return reflect.ValueOf(&hexagon{}), nil // stands in with the right method set
}

func (t *implTable) StandImpl(name string, raw []byte, typ reflect.Type, impl []string) (reflect.Value, error) {
	t.impl = impl
	return reflect.Value{}, fmt.Errorf("unexpected")
}

// Values of unregistered dynamic types carry the asserted interfaces they
// implement, so replay's stand-ins answer type assertions the same way;
// errors too, through registered error stand-ins, and they re-encode
// byte for byte.
func TestImplementsPrefix(t *testing.T) {
	RegisterAsserted(reflect.TypeFor[sider]())
	RegisterAsserted(reflect.TypeFor[temporaryErr]())
	RegisterErrorStandIn(func(e *Error) error { return tempStandIn{e} })

	e := &Encoder{Objects: newTable()}
	Encode[any](e, &hexagon{6})
	s, err := Render(e.Buf)
	if err != nil || !strings.Contains(s, "implements(github.com/rules-capture/rules_capture/runtime/value.sider)") {
		t.Fatalf("render %q, %v", s, err)
	}
	r := &implTable{table: newTable()}
	d := &Decoder{Buf: e.Buf, Resolver: r}
	got := Decode[any](d)
	if _, ok := got.(sider); d.Err != nil || !ok || len(r.impl) != 1 {
		t.Fatalf("got %T, impl %v, %v", got, r.impl, d.Err)
	}

	e = &Encoder{Objects: newTable()}
	e.EncodeError(fmt.Errorf("dial: %w", busyErr{}))
	d = &Decoder{Buf: e.Buf, Resolver: newTable()}
	rerr := d.DecodeError()
	var tmp temporaryErr
	if d.Err != nil || !errors.As(rerr, &tmp) || rerr.Error() != "dial: busy" {
		t.Fatalf("errors.As on %#v: %v", rerr, d.Err)
	}
	again := &Encoder{Objects: newTable()}
	again.EncodeError(rerr)
	if !bytes.Equal(again.Buf, e.Buf) {
		t.Fatalf("re-encoded differently:\n%q\n%q", again.Buf, e.Buf)
	}
}

// BenchmarkEncodeIface: an interface value of a type replay cannot rebuild,
// without asserted interfaces in the program and with one its dynamic type
// implements (TagImplements prefix, looked up in a per-type-pair cache).
func BenchmarkEncodeIface(b *testing.B) {
	h := &hexagon{6}
	tab := newTable()
	e := &Encoder{Objects: tab, Buf: make([]byte, 0, 256)}
	run := func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			e.Buf = e.Buf[:0]
			Encode[any](e, h)
		}
	}
	RegisterAsserted(reflect.TypeFor[sider]())
	b.Run("no-asserted", func(b *testing.B) {
		asserted.any.Store(false)
		defer asserted.any.Store(true)
		run(b)
	})
	b.Run("asserted", run)
}

// TestUnknownRefInInterfaceThenNil: a result pair (fs.File, error) whose file
// is a pointer of a type replay cannot name (*fstest.openMapFile) and whose
// error is nil. The reference carries no contents, so the TagNil after it is
// the error's (the decoder once took it for the reference's contents and
// found no error: "cannot decode tag 255 into interface error"; toml's
// TestDecodeFS, study repro fsopen).
func TestUnknownRefInInterfaceThenNil(t *testing.T) {
	tab := newTable()
	e := &Encoder{Objects: tab}
	var f io.Reader = strings.NewReader("x") // *strings.Reader: not registered
	Encode(e, f)
	e.EncodeError(nil)
	Encode(e, 7)
	d := &Decoder{Buf: e.Buf, Resolver: tab}
	got := Decode[io.Reader](d)
	err := d.DecodeError()
	n := Decode[int](d)
	if d.Err != nil || got != f || err != nil || n != 7 || d.Off != len(e.Buf) {
		t.Fatalf("decoded %v, %v, %d (offset %d of %d): %v", got, err, n, d.Off, len(e.Buf), d.Err)
	}
}

// MaxObjectID finds object IDs anywhere in a sequence of values: in
// references, in objects with and without contents, nested in lists,
// struct fields and interfaces.
func TestMaxObjectID(t *testing.T) {
	type node struct{ V int }
	type holder struct {
		N   *node
		Any any
	}
	tab := newTable()
	tab.next = 40 // the IDs a capture had given before
	e := &Encoder{Objects: tab}
	Encode(e, 3)
	Encode(e, []*node{{1}, {2}})
	Encode(e, holder{Any: &node{3}})
	Encode(e, "x")
	got, err := MaxObjectID(e.Buf)
	if err != nil || got != 43 {
		t.Fatalf("MaxObjectID = %d, %v; want 43", got, err)
	}
	if got, err := MaxObjectID(AppendString(nil, "no objects")); got != 0 || err != nil {
		t.Fatalf("no objects: %d, %v", got, err)
	}
	if _, err := MaxObjectID([]byte{TagRef}); err == nil {
		t.Fatal("truncated value: no error")
	}
}

// wholeTable is a test table that knows, as replay's player learns from a
// whole log, the struct type of objects the log names by several types.
type wholeTable struct {
	*table
	wholes map[uint64]reflect.Type
}

func (w wholeTable) Whole(id uint64) (reflect.Type, bool) {
	t, ok := w.wholes[id]
	return t, ok
}

// TestFirstFieldThenWholeStruct: a log that names an object first as a
// pointer to its first field, then as a pointer to the enclosing struct
// (go-cmp's teststructs: s.PublicStruct.SetPrivate(2), then s.SetPrivate(4)
// on the *ParentStructD; study repro firstfield). A resolver that
// knows the whole struct's type (replay's player) gets the struct made at
// the first sight, the first sight's contents in its first field, and the
// later sight is the same object; one that does not gets the error naming
// the limitation, not a bare type mismatch that reads like a changed
// signature.
func TestFirstFieldThenWholeStruct(t *testing.T) {
	type inner struct{ A, b int }
	type outer struct {
		inner
		C int
	}
	o := outer{inner: inner{A: 1, b: 2}, C: 3}
	e := &Encoder{Objects: newTable(), Deep: true}
	Encode(e, &o.inner)
	Encode(e, &o)
	Encode(e, &o.inner)

	tab := wholeTable{newTable(), map[uint64]reflect.Type{1: reflect.TypeFor[outer]()}}
	d := &Decoder{Buf: e.Buf, Resolver: tab}
	in := Decode[*inner](d)
	whole := Decode[*outer](d)
	again := Decode[*inner](d)
	if d.Err != nil || d.Off != len(e.Buf) {
		t.Fatalf("decoding: %v (offset %d of %d)", d.Err, d.Off, len(e.Buf))
	}
	if unsafe.Pointer(in) != unsafe.Pointer(whole) || again != in {
		t.Fatalf("three sights of one object, three addresses: %p, %p, %p", in, whole, again)
	}
	if *in != (inner{A: 1, b: 2}) || whole.C != 0 {
		// C was not in the log: the capture gave the contents once, at the
		// first sight, as an inner.
		t.Fatalf("contents %+v, whole %+v", *in, *whole)
	}
	if got, ok := tab.objs[1]; !ok || got.Type() != reflect.TypeFor[*outer]() {
		t.Fatalf("object 1 bound as %v, want the whole *outer", got)
	}

	// Without the whole type (a resolver that does not know it, or a
	// struct this build cannot name): the smaller object, and the error
	// names the limitation.
	d = &Decoder{Buf: e.Buf, Resolver: newTable()}
	if got := Decode[*inner](d); got == nil || d.Err != nil {
		t.Fatalf("first value: %v, %v", got, d.Err)
	}
	Decode[*outer](d)
	if !errors.Is(d.Err, ErrFirstFieldFirst) || !errors.Is(d.Err, ErrTwoTypesOneAddress) {
		t.Fatalf("error %v, want ErrFirstFieldFirst", d.Err)
	}
	for _, want := range []string{"first a *value.inner, then a *value.outer", "first field", "docs/limitations.md"} {
		if !strings.Contains(d.Err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, d.Err)
		}
	}
}

// TestWholeStructNested: the first sight may be the first field's own
// first field, or an array's first element, at any depth; the whole is
// made once and every sight is a pointer into it.
func TestWholeStructNested(t *testing.T) {
	type leaf struct{ N int64 }
	type mid struct {
		L   [2]leaf
		Tag string
	}
	type top struct {
		M     mid
		Extra []int
	}
	var o top
	o.M.L[0].N = 7
	e := &Encoder{Objects: newTable(), Deep: true}
	Encode(e, &o.M.L[0])
	Encode(e, &o.M)
	Encode(e, &o)
	tab := wholeTable{newTable(), map[uint64]reflect.Type{1: reflect.TypeFor[top]()}}
	d := &Decoder{Buf: e.Buf, Resolver: tab}
	l := Decode[*leaf](d)
	m := Decode[*mid](d)
	w := Decode[*top](d)
	if d.Err != nil {
		t.Fatal(d.Err)
	}
	if unsafe.Pointer(l) != unsafe.Pointer(w) || unsafe.Pointer(m) != unsafe.Pointer(w) || w.M.L[0].N != 7 {
		t.Fatalf("sights %p %p %p, contents %+v", l, m, w, *w)
	}
}

// TestTwoUnrelatedTypesOneAddress: a log that names one object by two types
// neither of which holds the other at its start (an int64 field seen
// through a *uint64) is a known limitation with its own message, in both
// orders, even when the resolver knows a whole for it; never a
// reinterpretation of the object's memory as the other type. A sight whose
// slot type is not the type the log names (a changed signature) keeps the
// plain mismatch.
func TestTwoUnrelatedTypesOneAddress(t *testing.T) {
	type other struct {
		X int64
		Y *int
	}
	var b other
	e := &Encoder{Objects: newTable(), Deep: true}
	Encode(e, (*uint64)(unsafe.Pointer(&b.X)))
	Encode(e, &b)
	for _, r := range []Resolver{newTable(), wholeTable{newTable(), map[uint64]reflect.Type{1: reflect.TypeFor[other]()}}} {
		d := &Decoder{Buf: e.Buf, Resolver: r}
		Decode[*uint64](d)
		Decode[*other](d)
		if !errors.Is(d.Err, ErrTwoTypesOneAddress) || errors.Is(d.Err, ErrFirstFieldFirst) {
			t.Fatalf("uint64 then other (%T): %v", r, d.Err)
		}
		for _, want := range []string{"first a *uint64, then a *value.other", "neither holds the other", "docs/limitations.md"} {
			if !strings.Contains(d.Err.Error(), want) {
				t.Errorf("error lacks %q: %v", want, d.Err)
			}
		}
	}

	// The other order: the larger object first, then a smaller type that
	// is not at its start (Y, a pointer, where the *int64 would read X).
	type pair struct {
		Y *int
		X int64
	}
	var p pair
	e = &Encoder{Objects: newTable(), Deep: true}
	Encode(e, &p)
	Encode(e, (*int64)(unsafe.Pointer(&p)))
	d := &Decoder{Buf: e.Buf, Resolver: newTable()}
	Decode[*pair](d)
	if got := Decode[*int64](d); got != nil || !errors.Is(d.Err, ErrTwoTypesOneAddress) {
		t.Fatalf("pair then int64: %v, %v", got, d.Err)
	}

	// A slot of another type than the log names: a changed signature.
	e = &Encoder{Objects: newTable(), Deep: true}
	Encode(e, &b)
	Encode(e, &b)
	d = &Decoder{Buf: e.Buf, Resolver: newTable()}
	Decode[*other](d)
	Decode[*pair](d)
	if d.Err == nil || errors.Is(d.Err, ErrTwoTypesOneAddress) || !strings.Contains(d.Err.Error(), "not a") {
		t.Errorf("changed slot type: %v", d.Err)
	}
}

// TestLeadsWith: the types a value holds at its start.
func TestLeadsWith(t *testing.T) {
	type a struct{ N int }
	type b struct {
		A a
		M int
	}
	type zeroFirst struct {
		_ [0]func()
		B b
	}
	type second struct {
		M int
		A a
	}
	type ptrFirst struct {
		A *a
	}
	cases := []struct {
		outer, inner reflect.Type
		want         bool
	}{
		{reflect.TypeFor[b](), reflect.TypeFor[a](), true},
		{reflect.TypeFor[b](), reflect.TypeFor[int](), true}, // a.N
		{reflect.TypeFor[zeroFirst](), reflect.TypeFor[a](), true},
		{reflect.TypeFor[[3]b](), reflect.TypeFor[a](), true},
		{reflect.TypeFor[second](), reflect.TypeFor[a](), false},
		{reflect.TypeFor[ptrFirst](), reflect.TypeFor[a](), false},
		{reflect.TypeFor[a](), reflect.TypeFor[a](), false},
		{reflect.TypeFor[a](), reflect.TypeFor[b](), false},
		{reflect.TypeFor[[0]a](), reflect.TypeFor[a](), false},
	}
	for _, c := range cases {
		if got := LeadsWith(c.outer, c.inner); got != c.want {
			t.Errorf("LeadsWith(%v, %v) = %v, want %v", c.outer, c.inner, got, c.want)
		}
	}
}

// TestHoldsAtStart: which types replay may see an object of another type
// as, at the same address.
func TestHoldsAtStart(t *testing.T) {
	type intValue int
	type withPtr struct {
		P *int
		N int
	}
	type plain struct{ A, B int64 }
	cases := []struct {
		outer, inner reflect.Type
		want         bool
	}{
		{reflect.TypeFor[int](), reflect.TypeFor[intValue](), true},  // pflag's *int as *intValue
		{reflect.TypeFor[withPtr](), reflect.TypeFor[*int](), true},  // its first field
		{reflect.TypeFor[plain](), reflect.TypeFor[int64](), true},   // its first field
		{reflect.TypeFor[plain](), reflect.TypeFor[uint64](), false}, // another type at its start
		{reflect.TypeFor[withPtr](), reflect.TypeFor[int](), false},  // an int where a pointer is
		{reflect.TypeFor[int](), reflect.TypeFor[float64](), false},  // another kind
		{reflect.TypeFor[int32](), reflect.TypeFor[int64](), false},  // larger
		{reflect.TypeFor[string](), reflect.TypeFor[[2]uintptr](), false},
	}
	for _, c := range cases {
		if got := holdsAtStart(c.outer, c.inner); got != c.want {
			t.Errorf("holdsAtStart(%v, %v) = %v, want %v", c.outer, c.inner, got, c.want)
		}
	}
}

// TestObjectRefs: every reference and object with its recorded type name,
// also the ones inside interface values whose names the encoding leaves
// empty (the interface value's dynamic type).
func TestObjectRefs(t *testing.T) {
	type node struct{ V int }
	e := &Encoder{Objects: newTable(), Deep: true}
	n := &node{1}
	Encode(e, n)
	Encode[any](e, n)
	Encode(e, []any{&node{2}, 3})
	var got []string
	if err := ObjectRefs(e.Buf, func(id uint64, name string) { got = append(got, fmt.Sprintf("%s#%d", name, id)) }); err != nil {
		t.Fatal(err)
	}
	want := "[*github.com/rules-capture/rules_capture/runtime/value.node#1 *github.com/rules-capture/rules_capture/runtime/value.node#1 *github.com/rules-capture/rules_capture/runtime/value.node#2]"
	if fmt.Sprint(got) != want {
		t.Errorf("ObjectRefs: %v\nwant %s", got, want)
	}
}

type laterOwned struct{ N int }

type laterGeneric[T any] struct{ V T }

// IsObservedType's answers are cached per type; a registration after an
// answer changes it (a cached "no" for a type registered later, or for an
// instantiation of a generic type of a package observed later), also while
// other goroutines keep asking.
func TestIsObservedTypeAfterRegistration(t *testing.T) {
	own := reflect.TypeFor[laterOwned]()
	inst := reflect.TypeFor[laterGeneric[int]]()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
					IsObservedType(own)
					IsObservedType(inst)
				}
			}
		}()
	}
	defer func() { close(stop); wg.Wait() }()
	for range 3 { // cached
		if IsObservedType(own) || IsObservedType(inst) {
			t.Fatal("observed before any registration")
		}
	}
	RegisterOwnType(own)
	if !IsObservedType(own) {
		t.Error("a type registered after a cached answer is not observed")
	}
	if IsObservedType(inst) {
		t.Error("the generic type's instantiation is observed before its package")
	}
	ObservePackage(inst.PkgPath())
	defer func() {
		registry.Lock()
		delete(registry.observed, inst.PkgPath())
		delete(registry.own, own)
		observedTypes.Clear()
		observedGen.Add(1)
		registry.Unlock()
	}()
	if !IsObservedType(inst) {
		t.Error("an instantiation of a generic type of a package observed after a cached answer is not observed")
	}
}
