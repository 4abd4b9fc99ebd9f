package value

import (
	"bytes"
	"reflect"
	"testing"
)

// TestCompositeTypesByName: replay rebuilds unnamed types made of
// registered ones from their names, as values from outside that observed
// code reflects over come in them (a map[string]interface {} given to an
// encoder).
func TestCompositeTypesByName(t *testing.T) {
	RegisterType(reflect.TypeFor[point]())
	for _, want := range []reflect.Type{
		reflect.TypeFor[any](),
		reflect.TypeFor[[]int](),
		reflect.TypeFor[[3]string](),
		reflect.TypeFor[map[string]any](),
		reflect.TypeFor[map[[2]int][]*point](),
		reflect.TypeFor[*[]map[string]point](),
		reflect.TypeFor[[]map[string][]any](),
	} {
		got, ok := LookupType(TypeName(want))
		if !ok || got != want {
			t.Errorf("LookupType(%q) = %v, %v; want %v", TypeName(want), got, ok, want)
		}
	}
	for _, name := range []string{
		"[]example.com/nowhere.T", "map[]int", "map[[]int]string", "[x]int", "[-1]int", "[01]int", "map[string", "struct { A int }", "chan int", "",
	} {
		if got, ok := LookupType(name); ok {
			t.Errorf("LookupType(%q) = %v, want none", name, got)
		}
	}
}

type settings struct {
	Name  string
	Inner *settingsInner
}

type settingsInner struct{ Port int }

// TestRefreshRewritesObjectsFromOutside: an object of a type outside the
// observed set carries its contents at every sight in a Refresh encoding
// (its state as external code left it), once per encoding; a plain Deep
// encoding writes them at the first sight only.
func TestRefreshRewritesObjectsFromOutside(t *testing.T) {
	RegisterType(reflect.TypeFor[*settings]())
	RegisterType(reflect.TypeFor[*settingsInner]())
	s := &settings{Name: "a", Inner: &settingsInner{Port: 1}}
	objs := newTable()
	first := &Encoder{Objects: objs, Deep: true, Refresh: true}
	Encode[any](first, s)
	s.Name, s.Inner.Port = "b", 2 // external code changes it between crossings
	again := &Encoder{Objects: objs, Deep: true, Refresh: true}
	Encode[any](again, []any{s, s}) // twice in one value: contents once
	plain := &Encoder{Objects: objs, Deep: true}
	Encode[any](plain, s)

	res := newTable()
	d := &Decoder{Buf: first.Buf, Resolver: res}
	got := Decode[any](d).(*settings)
	if d.Err != nil || got.Name != "a" || got.Inner.Port != 1 {
		t.Fatalf("first: %+v %v", got, d.Err)
	}
	d = &Decoder{Buf: again.Buf, Resolver: res}
	both := Decode[any](d).([]any)
	if d.Err != nil || both[0] != any(got) || both[1] != any(got) || got.Name != "b" || got.Inner.Port != 2 {
		t.Fatalf("again: %+v %+v %v", both, got, d.Err)
	}
	if n := bytes.Count(again.Buf, []byte{TagString, 1, 'b'}); n != 1 {
		t.Errorf("contents written %d times in one encoding: %q", n, again.Buf)
	}
	if bytes.Contains(plain.Buf, []byte{TagString}) {
		t.Errorf("a plain Deep encoding rewrote a known object: %q", plain.Buf)
	}
}
