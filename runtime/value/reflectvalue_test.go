package value

import (
	"reflect"
	"strings"
	"testing"
)

type rvTarget struct {
	Name   string
	Port   int
	hidden int
}

// A reflect.Value crosses as what it refers to: its type, validity,
// addressability and read-only flag, and its value; replay makes a
// reflect.Value with the same flags over the rebuilt value, and
// re-encoding it gives the same bytes.
func TestReflectValueRoundTrip(t *testing.T) {
	RegisterType(reflect.TypeFor[*rvTarget]())
	obj := &rvTarget{Name: "a", Port: 8, hidden: 3}
	m := map[string]any{"k": 1.5}
	cases := []struct {
		name string
		rv   reflect.Value
	}{
		{"invalid", reflect.Value{}},
		{"int", reflect.ValueOf(42)},
		{"string", reflect.ValueOf("s")},
		{"struct", reflect.ValueOf(rvTarget{Name: "b", hidden: 1})},
		{"pointer", reflect.ValueOf(obj)},
		{"addressable", reflect.ValueOf(obj).Elem()},
		{"addressable field", reflect.ValueOf(obj).Elem().Field(1)},
		{"read-only", reflect.ValueOf(rvTarget{hidden: 9}).Field(2)},
		{"addressable read-only", reflect.ValueOf(obj).Elem().Field(2)},
		{"map index of interface kind", reflect.ValueOf(m).MapIndex(reflect.ValueOf("k"))},
		{"slice", reflect.ValueOf([]int{1, 2})},
	}
	for _, c := range cases {
		type holder struct {
			V   reflect.Value
			Any any
			L   []reflect.Value
		}
		in := holder{V: c.rv, Any: c.rv, L: []reflect.Value{c.rv}}
		e := Encoder{Objects: newTable()}
		Encode(&e, in)
		if !strings.Contains(render1(e.Buf), "reflect.Value(") {
			t.Errorf("%s: rendered %s", c.name, render1(e.Buf))
		}
		d := Decoder{Buf: e.Buf, Resolver: newTable()}
		out := Decode[holder](&d)
		if d.Err != nil {
			t.Errorf("%s: decode: %v (%s)", c.name, d.Err, render1(e.Buf))
			continue
		}
		for _, got := range []reflect.Value{out.V, out.Any.(reflect.Value), out.L[0]} {
			if got.IsValid() != c.rv.IsValid() {
				t.Errorf("%s: valid %v", c.name, got.IsValid())
				continue
			}
			if !got.IsValid() {
				continue
			}
			if got.Type() != c.rv.Type() || got.Kind() != c.rv.Kind() || got.CanAddr() != c.rv.CanAddr() ||
				got.CanSet() != c.rv.CanSet() || got.CanInterface() != c.rv.CanInterface() {
				t.Errorf("%s: decoded %v addr=%v set=%v iface=%v, want %v addr=%v set=%v iface=%v", c.name,
					got.Type(), got.CanAddr(), got.CanSet(), got.CanInterface(), c.rv.Type(), c.rv.CanAddr(), c.rv.CanSet(), c.rv.CanInterface())
			}
		}
		again := Encoder{Objects: newTable()}
		Encode(&again, out)
		if string(again.Buf) != string(e.Buf) {
			t.Errorf("%s: re-encoded differently:\n%s\n%s", c.name, render1(again.Buf), render1(e.Buf))
		}
	}
}

// An addressable reflect.Value is bound to the same object as the other
// references to its memory: a write through the decoded value lands in the
// object that an earlier pointer decoded to.
func TestReflectValueAddressableIdentity(t *testing.T) {
	RegisterType(reflect.TypeFor[*rvTarget]())
	obj := &rvTarget{Name: "a"}
	objs := newTable()
	first := Encoder{Objects: objs}
	Encode[any](&first, obj)
	second := Encoder{Objects: objs}
	Encode(&second, reflect.ValueOf(obj).Elem())

	res := newTable()
	d := Decoder{Buf: first.Buf, Resolver: res}
	got := Decode[any](&d).(*rvTarget)
	d = Decoder{Buf: second.Buf, Resolver: res}
	rv := Decode[reflect.Value](&d)
	if d.Err != nil {
		t.Fatal(d.Err)
	}
	rv.Field(0).SetString("written")
	if got.Name != "written" {
		t.Errorf("write through the decoded reflect.Value did not reach the object: %+v (%s)", got, render1(second.Buf))
	}
}

// closureTable resolves a function's ID as replay does: the object bound
// to it is the closure's identity (not a function), and a reference of a
// func type is answered with a function of that type.
type closureTable struct{ *table }

type closureIdentity struct{ id uint64 }

func (c closureTable) Object(id uint64) (reflect.Value, bool) {
	return reflect.ValueOf(&closureIdentity{id}), true
}

func (c closureTable) Ref(id uint64, name string, typ reflect.Type) (reflect.Value, error) {
	if typ.Kind() == reflect.Func {
		return reflect.MakeFunc(typ, func([]reflect.Value) []reflect.Value { panic("stand-in") }), nil
	}
	return c.table.Ref(id, name, typ)
}

// A function in an interface slot whose type is a func literal made of
// types the build names (mapstructure's DecodeHookFunc holding a
// func(reflect.Value, reflect.Value) (interface {}, error)) decodes as a
// function of that very type, through the resolver's answer for a func
// reference, so that code converting it by its type (typedDecodeHook)
// recognises it; not as whatever object the ID is bound to.
func TestFuncLiteralInInterfaceKeepsItsType(t *testing.T) {
	hook := func(from, to reflect.Value) (any, error) { return nil, nil }
	e := Encoder{Objects: newTable()}
	Encode[any](&e, hook)
	d := Decoder{Buf: e.Buf, Resolver: closureTable{newTable()}}
	got := Decode[any](&d)
	if d.Err != nil {
		t.Fatal(d.Err)
	}
	if reflect.TypeOf(got) != reflect.TypeOf(hook) {
		t.Errorf("decoded %T (%s), want %T", got, render1(e.Buf), hook)
	}
}
