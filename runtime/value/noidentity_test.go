package value

import (
	"bytes"
	"reflect"
	"testing"
	"unsafe"
)

type zsA struct{}
type zsB struct{ _ [0]int }

var zsVar zsA

// countingTable is the test table, counting the pointers it is asked to
// number and the stand-ins it is asked for.
type countingTable struct {
	*table
	asked  []unsafe.Pointer
	stands [][]byte
}

func (t *countingTable) ID(v reflect.Value, name string, weak bool) (uint64, bool, string) {
	t.asked = append(t.asked, v.UnsafePointer())
	return t.table.ID(v, name, weak)
}

func (t *countingTable) Stand(name string, raw []byte, typ reflect.Type) (reflect.Value, error) {
	t.stands = append(t.stands, bytes.Clone(raw))
	return reflect.ValueOf(&Opaque{Type: name}), nil
}

type zsHolder struct {
	A      *zsA
	B      *zsB
	A2, V  *zsA
	H1, H2 *zsA
}

// Distinct zero-size objects share one address (&zsA{}, &zsB{}, a
// zero-size package variable): none of them gets an object ID, so replay
// neither takes them for one object nor requires them to be distinct. A
// pointer to a zero-size type elsewhere (a handle into other memory, as
// *runtime.Func) keeps its identity by address.
func TestZeroSizePointersHaveNoIdentity(t *testing.T) {
	handle := (*zsA)(unsafe.Pointer(new(int64)))
	in := zsHolder{A: &zsA{}, B: &zsB{}, A2: new(zsA), V: &zsVar, H1: handle, H2: handle}
	if unsafe.Pointer(in.A) != unsafe.Pointer(in.B) || unsafe.Pointer(in.A) != unsafe.Pointer(in.V) {
		t.Skip("this Go gives zero-size objects distinct addresses")
	}
	tab := &countingTable{table: newTable()}
	e := &Encoder{Objects: tab}
	Encode(e, in)
	if len(tab.asked) != 2 || tab.asked[0] != unsafe.Pointer(handle) || tab.asked[1] != unsafe.Pointer(handle) {
		t.Fatalf("the table was asked to number %v, want the handle twice", tab.asked)
	}
	s, err := Render(e.Buf)
	if err != nil {
		t.Fatal(err)
	}
	const a = "*github.com/rules-capture/rules_capture/runtime/value.zsA"
	const b = "*github.com/rules-capture/rules_capture/runtime/value.zsB"
	if want := "{" + a + "#0, " + b + "#0, " + a + "#0, " + a + "#0, " + a + "#1, " + a + "#1}"; s != want {
		t.Fatalf("got  %s\nwant %s", s, want)
	}

	// Replay: a zero-size object of its own for each, bound to no ID; the
	// handle's two sights are one stand-in.
	rt := &countingTable{table: newTable()}
	d := &Decoder{Buf: e.Buf, Resolver: rt}
	out := Decode[zsHolder](d)
	if d.Err != nil {
		t.Fatal(d.Err)
	}
	if out.A == nil || out.B == nil || out.A2 == nil || out.V == nil || out.H1 == nil || out.H1 != out.H2 {
		t.Fatalf("decoded %+v", out)
	}
	if _, bound := rt.objs[0]; bound || len(rt.objs) != 1 {
		t.Fatalf("replay bound %v, want only the handle's ID 1", rt.objs)
	}
	// The replayed objects re-encode as the log has them (the test
	// table's stand-in for the handle is no distinct object: left out).
	in.H1, in.H2, out.H1, out.H2 = nil, nil, nil, nil
	e1, e2 := &Encoder{Objects: newTable()}, &Encoder{Objects: newTable()}
	Encode(e1, in)
	Encode(e2, out)
	if !bytes.Equal(e2.Buf, e1.Buf) {
		r1, _ := Render(e1.Buf)
		r2, _ := Render(e2.Buf)
		t.Fatalf("re-encoded %s\nwant %s", r2, r1)
	}
}

// In an interface, a pointer with no identity to a type replay cannot name
// is a value: its stand-in comes from Stand with the reference's encoding,
// which re-encodes it as recorded, not from Ref with an ID to bind.
func TestZeroSizePointerOfUnknownTypeIsAValue(t *testing.T) {
	type unnamed struct{} // declared in a function: never registered by name
	e := &Encoder{Objects: newTable()}
	Encode[any](e, &unnamed{})
	tab := &countingTable{table: newTable()}
	d := &Decoder{Buf: e.Buf, Resolver: tab}
	x := Decode[any](d)
	if d.Err != nil {
		t.Fatal(d.Err)
	}
	if len(tab.stands) != 1 || len(tab.objs) != 0 {
		t.Fatalf("stands %q, bound %v", tab.stands, tab.objs)
	}
	if want := []byte{TagRef, 0, 0}; !bytes.Equal(tab.stands[0], want) {
		t.Fatalf("stand-in's encoding %v, want %v", tab.stands[0], want)
	}
	if _, ok := x.(*Opaque); !ok {
		t.Fatalf("decoded %T", x)
	}
}
