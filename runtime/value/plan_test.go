package value

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/rules-capture/rules_capture/runtime/internal/cputime"
)

// Types for the plan tests: every kind, named kinds, unexported and blank
// fields, embedding, recursion through slices and observed pointers.

type planKinds struct {
	B    bool
	I    int
	I8   int8
	I16  int16
	I32  int32
	I64  int64
	U    uint
	U8   uint8
	U16  uint16
	U32  uint32
	U64  uint64
	UP   uintptr
	F32  float32
	F64  float64
	C64  complex64
	C128 complex128
	S    string
	_    int
	priv string
}

type planByte uint8
type planInt int
type planStr string
type planPtr *planLeaf
type planLeaf struct{ N planInt }

type planEmbed struct {
	planLeaf
	*planKinds
	When  time.Time
	Whens []time.Time
}

type planTree struct {
	Name  string
	Kids  []planTree
	Up    *planOwned
	Attrs map[planLeaf][]string
	Any   any
	Err   error
	Fn    func() int
	Ch    chan int
	UP    unsafe.Pointer
	NP    planPtr
	Empty struct{}
	Arr   [3]planByte
	Bytes []planByte
	Nums  [2][]int
}

// planOwned is registered as a type of an observed package: pointers to it
// are observed objects carrying their pointee.
type planOwned struct {
	Next  *planOwned
	Label string
	Tree  *planTree
}

type planErr struct{ Code int }

func (e *planErr) Error() string { return fmt.Sprint("plan error ", e.Code) }

type planValErr struct{ Code int }

func (e planValErr) Error() string { return "value error" }

// planValues: a table of values of many shapes, built afresh for each
// encoder so both see the same pointers.
func planValues() []any {
	RegisterOwnType(reflect.TypeFor[planOwned]())
	RegisterType(reflect.TypeFor[*planErr]())
	RegisterType(reflect.TypeFor[planValErr]())
	RegisterSentinel("io.EOF", io.EOF)
	kinds := planKinds{true, -1, -8, -16, -32, -64, 1, 8, 16, 32, 64, 99, 1.5, -2.25, complex(1, 2), complex(-3, 4), "s", 0, "private"}
	loop := &planOwned{Label: "a"}
	loop.Next = &planOwned{Label: "b", Next: loop}
	leaf := &planLeaf{7}
	ch := make(chan int)
	fn := func() int { return 1 }
	tree := planTree{
		Name: "root",
		Kids: []planTree{{Name: "k1", Bytes: []planByte{1, 2}}, {Name: "k2", Kids: []planTree{}, Arr: [3]planByte{4, 5, 6}}},
		Up:   loop,
		Attrs: map[planLeaf][]string{
			{3}: {"c"}, {1}: {"a", "b"}, {2}: nil,
		},
		Any:  planLeaf{9},
		Err:  fmt.Errorf("wrapped: %w", &planErr{4}),
		Fn:   fn,
		Ch:   ch,
		UP:   unsafe.Pointer(leaf),
		NP:   planPtr(leaf),
		Nums: [2][]int{{1}, nil},
	}
	loop.Tree = &tree
	deep := any(0)
	for range 40 {
		deep = []any{deep}
	}
	type deepStruct struct{ In any }
	ds := any(deepStruct{})
	for range 40 {
		ds = deepStruct{ds}
	}
	var nilErr *planErr
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	when := time.Date(2026, 11, 22, 21, 0, 0, 5, time.FixedZone("X", 3600))
	return []any{
		kinds, &kinds, []planKinds{kinds, {}},
		planEmbed{planLeaf: planLeaf{1}, planKinds: &kinds, When: when, Whens: []time.Time{when, time.Now()}},
		tree, &tree, []planTree{tree, tree}, loop, []*planOwned{loop, loop.Next, loop},
		map[string]planTree{"t": tree}, map[planInt]*planOwned{1: loop},
		[4]planLeaf{{1}, {2}}, []planByte{9}, []byte(nil), []int(nil), [0]int{},
		any(planLeaf{2}), error(&planErr{5}), error(planValErr{6}), io.EOF, errors.Join(io.EOF, nilErr),
		fmt.Errorf("x: %w", context.Canceled), ctx, []any{1, "a", nil, planLeaf{3}, &kinds},
		deep, ds, leaf, planPtr(nil), ch, fn, unsafe.Pointer(leaf),
		struct {
			A []planLeaf
			m map[string]int
		}{[]planLeaf{{1}, {2}}, map[string]int{"x": 1}},
		// Scalars of every kind that are not addressable: in interfaces
		// and as map keys and values.
		[]any{true, -1, int8(-8), int16(-16), int32(-32), int64(-64), uint(1), uint8(8), uint16(16), uint32(32), uint64(64),
			uintptr(99), float32(1.5), -2.25, complex64(complex(1, 2)), complex(-3, 4), "s", planInt(5), planByte(6), planStr("n")},
		map[planByte]complex64{1: complex(1, 2), 2: 0}, map[string]bool{"t": true, "f": false},
		map[float64]planStr{1.5: "a", -2: "b"}, map[any]int{1: 1, "a": 2, planLeaf{3}: 3, int8(1): 4},
		map[planInt]any{1: uint16(7), 2: "x", 3: nil},
		true, int8(-8), uint32(32), uintptr(5), float32(-0.5), complex64(complex(0, 1)), planInt(3), planByte(4), "top", planStr("named"),
	}
}

// encodeBoth encodes c as the reference encoder did and as the plans do,
// from an addressable value and from an unaddressable one.
func encodeBoth(t *testing.T, c any, deep bool) (ref, addr, unaddr []byte) {
	t.Helper()
	rv := reflect.ValueOf(c)
	r := &refEncoder{Objects: newTable(), Deep: deep}
	r.encode(rv, 0)
	a := &Encoder{Objects: newTable(), Deep: deep}
	cp := reflect.New(rv.Type()).Elem()
	cp.Set(rv)
	a.EncodeValue(cp)
	u := &Encoder{Objects: newTable(), Deep: deep}
	u.EncodeValue(rv)
	return r.Buf, a.Buf, u.Buf
}

// The plans write exactly what the reflection encoder wrote (after
// Upgrade, which is the identity on encodings without struct names), and
// what they write decodes to the same values.
func TestPlansMatchReflectionEncoder(t *testing.T) {
	for _, deep := range []bool{false, true} {
		for i, c := range planValues() {
			name := fmt.Sprintf("%d_%T_deep=%v", i, c, deep)
			t.Run(name, func(t *testing.T) {
				ref, addr, unaddr := encodeBoth(t, c, deep)
				want, err := Upgrade(ref)
				if err != nil {
					t.Fatalf("upgrade: %v", err)
				}
				for _, got := range [][]byte{addr, unaddr} {
					if string(got) != string(want) {
						rs, _ := Render(want)
						gs, _ := Render(got)
						t.Fatalf("plan encoding differs\nref:  %s\n      %x\nplan: %s\n      %x", rs, want, gs, got)
					}
				}
				// Same decode results: decode the reference bytes and the
				// plan's into fresh values of the static type.
				typ := reflect.TypeOf(c)
				a, b := reflect.New(typ).Elem(), reflect.New(typ).Elem()
				da := &Decoder{Buf: ref, Resolver: newTable()}
				da.DecodeValue(a)
				db := &Decoder{Buf: addr, Resolver: newTable()}
				db.DecodeValue(b)
				if (da.Err == nil) != (db.Err == nil) {
					t.Fatalf("decode errors differ: %v / %v", da.Err, db.Err)
				}
				if da.Err == nil {
					ra := &refEncoder{Objects: newTable(), Deep: deep}
					ra.encode(a, 0)
					rb := &refEncoder{Objects: newTable(), Deep: deep}
					rb.encode(b, 0)
					if string(ra.Buf) != string(rb.Buf) {
						sa, _ := Render(ra.Buf)
						sb, _ := Render(rb.Buf)
						t.Fatalf("decoded values differ:\n%s\n%s", sa, sb)
					}
				}
			})
		}
	}
}

// A read-only reflect.Value (an unexported field taken by reflection) is
// encoded as opaque, not panicking: the encoder copies non-addressable
// scalars, which reflect refuses for read-only values. (The plans read
// unexported fields through their addresses, so none of this package's
// callers passes one.)
func TestReadOnlyScalarOpaque(t *testing.T) {
	v := reflect.ValueOf(struct{ n int }{5}).Field(0)
	e := &Encoder{}
	e.EncodeValue(v)
	if got, err := Render(e.Buf); err != nil || !strings.Contains(got, "read-only int") {
		t.Fatalf("read-only int: %q, %v", got, err)
	}
}

// Plans are built once per type, also under concurrent first use, and a
// recursive type's plan refers to itself.
func TestPlanCacheConcurrent(t *testing.T) {
	type fresh struct {
		A []fresh
		B map[string]fresh
		C *fresh
	}
	typ := reflect.TypeFor[fresh]()
	got := make(chan *encPlan, 8)
	for range 8 {
		go func() { got <- planFor(typ) }()
	}
	first := <-got
	for range 7 {
		if p := <-got; p != first {
			t.Fatal("two plans for one type")
		}
	}
	if first.fields[0].pl.elem != first {
		t.Fatal("the plan of []fresh does not use fresh's own plan")
	}
	v := fresh{A: []fresh{{}, {A: []fresh{{}}, B: map[string]fresh{"b": {}}}}}
	if got := roundTrip(t, v); !reflect.DeepEqual(got, v) {
		t.Fatalf("got %+v, want %+v", got, v)
	}
}

// fuzzShape is built from fuzz input: structs in slices, arrays, maps,
// pointers and interfaces, the places where format 2 drops type names.
type fuzzShape struct {
	Name  string
	N     int64
	U     uint16
	F     float64
	Ok    bool
	Lines []fuzzLine
	Pair  [2]fuzzLine
	ByKey map[fuzzKey]fuzzLine
	Ptr   *fuzzLine
	Any   any
	Blob  []byte
}

type fuzzLine struct {
	SKU   string
	Qty   int
	Rules []string
	When  time.Time
}

type fuzzKey struct {
	A string
	B int8
}

func fuzzValue(name string, n int64, blob []byte, ok bool) fuzzShape {
	v := fuzzShape{Name: name, N: n, U: uint16(n), F: float64(n) / 3, Ok: ok, Blob: blob}
	for i, b := range blob {
		if i == 8 {
			break
		}
		l := fuzzLine{SKU: name[:min(len(name), int(b)%4)], Qty: int(b) - 128, When: time.Unix(n, int64(b)).UTC()}
		if b%3 == 0 {
			l.Rules = []string{name}
		}
		v.Lines = append(v.Lines, l)
		if v.ByKey == nil {
			v.ByKey = map[fuzzKey]fuzzLine{}
		}
		v.ByKey[fuzzKey{name, int8(b)}] = l
		v.Pair[i%2] = l
	}
	if ok && len(v.Lines) > 0 {
		v.Ptr = &v.Lines[0]
		v.Any = v.Lines[len(v.Lines)-1]
	}
	return v
}

// FuzzRecordRoundTrip: values encoded by the plans (format 2) decode back
// equal; the format 1 encoding of the same value upgrades to exactly the
// plans' bytes and decodes to the same value; both render.
func FuzzRecordRoundTrip(f *testing.F) {
	RegisterType(reflect.TypeFor[fuzzLine]())
	f.Add("abc", int64(7), []byte{1, 2, 3, 200}, true)
	f.Add("", int64(-1), []byte(nil), false)
	f.Add("ü", int64(1<<40), []byte{0, 3, 6, 9, 12, 15, 18, 21, 24}, true)
	f.Fuzz(func(t *testing.T, name string, n int64, blob []byte, ok bool) {
		v := fuzzValue(name, n, blob, ok)
		e := &Encoder{Objects: newTable(), Deep: true}
		Encode(e, v)
		for _, enc := range [][]byte{e.Buf, func() []byte {
			r := &refEncoder{Objects: newTable(), Deep: true}
			r.encode(reflect.ValueOf(v), 0)
			up, err := Upgrade(r.Buf)
			if err != nil {
				t.Fatalf("upgrade: %v", err)
			}
			if string(up) != string(e.Buf) {
				t.Fatalf("format 1 upgraded\n%x\nplans\n%x", up, e.Buf)
			}
			return r.Buf
		}()} {
			d := &Decoder{Buf: enc, Resolver: newTable()}
			got := Decode[fuzzShape](d)
			if d.Err != nil || d.Off != len(enc) {
				t.Fatalf("decode: %v (%d of %d bytes)", d.Err, d.Off, len(enc))
			}
			if got.Ptr != nil {
				if !reflect.DeepEqual(*got.Ptr, *v.Ptr) {
					t.Fatalf("pointee %+v, want %+v", *got.Ptr, *v.Ptr)
				}
				got.Ptr, v.Ptr = nil, nil
			}
			if !reflect.DeepEqual(got, v) {
				t.Fatalf("got  %+v\nwant %+v", got, v)
			}
			if _, err := Render(enc); err != nil {
				t.Fatal(err)
			}
			v = fuzzValue(name, n, blob, ok)
		}
	})
}

// FuzzUpgrade: any input upgrades without panicking; what upgrades is
// unchanged by a second upgrade (so no TagStruct is left: upgrading one
// drops its name; nor a repeated name in an interface value) and has as
// many top-level values as the input.
func FuzzUpgrade(f *testing.F) {
	for _, c := range planValues() {
		r := &refEncoder{Objects: newTable()}
		r.encode(reflect.ValueOf(c), 0)
		f.Add(r.Buf)
	}
	f.Add([]byte{TagStruct, 1, 'T', 1, TagStruct})
	f.Add([]byte("00")) // corrupt, without TagStruct and TagIface bytes: passed on unchecked
	f.Add([]byte{TagMap, 2, TagStruct, 0, 0, TagNil, TagRecord, 0, TagNil})
	f.Fuzz(func(t *testing.T, b []byte) {
		up, err := Upgrade(b)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error not ErrCorrupt: %v", err)
			}
			return
		}
		again, err := Upgrade(up)
		if err != nil || string(again) != string(up) {
			t.Fatalf("second upgrade changed %x to %x (%v)", up, again, err)
		}
		in, err1 := Split(b)
		out, err2 := Split(up)
		if err1 != nil {
			// Only input without TagStruct and TagIface bytes is passed
			// on unchecked.
			if bytes.IndexByte(b, TagStruct) >= 0 || bytes.IndexByte(b, TagIface) >= 0 || string(up) != string(b) {
				t.Fatalf("corrupt input %x upgraded to %x without error", b, up)
			}
			return
		}
		if err2 != nil || len(in) != len(out) {
			t.Fatalf("split: %d values (%v) became %d (%v)", len(in), err1, len(out), err2)
		}
	})
}

// A reference in an interface value of its own dynamic type names the type
// once (format 2): decoding, RefOf and Render give it to the reference.
func TestInterfaceRefNameOnce(t *testing.T) {
	RegisterType(reflect.TypeFor[*planLeaf]())
	name := TypeName(reflect.TypeFor[*planLeaf]())
	leaf := &planLeaf{5}
	e := &Encoder{Objects: newTable()}
	Encode[any](e, leaf)
	Encode[any](e, leaf)
	if n := bytes.Count(e.Buf, []byte(name)); n != 2 {
		t.Fatalf("type name written %d times for two values, want 2: %x", n, e.Buf)
	}
	if got, id, ok := RefOf(e.Buf); !ok || got != name || id != 1 {
		t.Fatalf("RefOf: %q %d %v", got, id, ok)
	}
	if s, err := Render(e.Buf); err != nil || s != name+"(#1), "+name+"(#1)" {
		t.Fatalf("Render: %s %v", s, err)
	}
	tab := newTable()
	d := &Decoder{Buf: e.Buf, Resolver: tab}
	a, b := Decode[any](d), Decode[any](d)
	if d.Err != nil {
		t.Fatal(d.Err)
	}
	pa, ok := a.(*planLeaf)
	if !ok || pa != b.(*planLeaf) {
		t.Fatalf("decoded %T %v and %v, want one *planLeaf", a, a, b)
	}
	// The format 1 encoding upgrades to exactly these bytes.
	r := &refEncoder{Objects: newTable()}
	r.encode(reflect.ValueOf(&leaf).Elem().Convert(reflect.TypeFor[any]()), 0)
	r.encode(reflect.ValueOf(&leaf).Elem().Convert(reflect.TypeFor[any]()), 0)
	if up, err := Upgrade(r.Buf); err != nil || string(up) != string(e.Buf) {
		t.Fatalf("upgrade: %x %v, want %x", up, err, e.Buf)
	}
}

type benchLine struct {
	SKU, Name, Category        string
	Qty                        int
	Unit, Gross, Discount, Net int64
	Rules                      []string
}

type benchQuote struct {
	Variant, Coupon string
	Lines           []benchLine
	Net             int64
}

// BenchmarkEncodeQuote: a struct shaped like the shop's Quote (two lines)
// encoded by the reflection encoder of format 1 (reflect) and by its plan
// (plan); encoded-B is the size of the encoding.
func BenchmarkEncodeQuote(b *testing.B) {
	q := benchQuote{Variant: "A", Lines: []benchLine{
		{SKU: "EQP-SCL", Name: "Brew scale", Category: "equipment", Qty: 2, Unit: 2990, Gross: 5980, Discount: 598, Net: 5382, Rules: []string{"volume"}},
		{SKU: "TEA-GYK-050", Name: "Gyokuro", Category: "tea", Qty: 1, Unit: 2800, Gross: 2800, Net: 2800},
	}, Net: 8182}
	b.Run("reflect", func(b *testing.B) {
		reportCPU(b)
		e := &refEncoder{}
		for b.Loop() {
			e.Buf = e.Buf[:0]
			e.encode(reflect.ValueOf(&q).Elem(), 0)
		}
		b.ReportMetric(float64(len(e.Buf)), "encoded-B")
	})
	b.Run("plan", func(b *testing.B) {
		reportCPU(b)
		e := &Encoder{}
		for b.Loop() {
			e.Buf = e.Buf[:0]
			Encode(e, q)
		}
		b.ReportMetric(float64(len(e.Buf)), "encoded-B")
	})
}

// reportCPU reports allocations and the process's CPU time per iteration
// (cpu-ns/op), as runtime/probe's benchmarks do: on a shared machine it
// measures the work better than wall time.
func reportCPU(b *testing.B) {
	b.ReportAllocs()
	start := cputime.Process()
	b.Cleanup(func() {
		if b.N > 0 {
			b.ReportMetric(float64(cputime.Process()-start)/float64(b.N), "cpu-ns/op")
		}
	})
}
