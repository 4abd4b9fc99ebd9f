package value

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"testing"
	"time"
	"unsafe"
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
