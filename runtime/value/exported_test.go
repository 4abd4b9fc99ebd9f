package value

import (
	"reflect"
	"strings"
	"testing"
)

type leavingObj struct {
	Name  string
	items map[string]int
	Sub   *leavingObj
	leavingInner
}

type leavingInner struct {
	Size   int
	hidden int
}

type leavingSet map[string]int // an observed type that is no struct: written whole

// TestOutgoingObjectExportedFields: an observed object of struct type seen
// first in an outgoing value is written as its exported fields (promoted
// ones included; an observed object among them likewise), never its
// unexported fields; the same object entering is written whole; a pointee
// that is no struct is written whole either way. The decoder reads the
// exported form back by field name, Render shows the names.
func TestOutgoingObjectExportedFields(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeFor[leavingObj](), reflect.TypeFor[leavingSet]()} {
		RegisterOwnType(typ)
	}
	mk := func() *leavingObj {
		return &leavingObj{Name: "a", items: map[string]int{"secret": 424242},
			Sub:          &leavingObj{Name: "b", leavingInner: leavingInner{hidden: 424242}},
			leavingInner: leavingInner{Size: 2, hidden: 424242}}
	}
	set := &leavingSet{"k": 1}
	out := Encoder{Objects: newTable(), Outgoing: true}
	Encode(&out, mk())
	Encode(&out, set)
	got, err := Render(out.Buf)
	if err != nil {
		t.Fatal(err)
	}
	const typ = "*github.com/rules-capture/rules_capture/runtime/value.leavingObj"
	want := typ + `#1={Name: "a", Sub: ` + typ + `#2={Name: "b", Sub: nil, Size: 0}, Size: 2}, ` +
		`*github.com/rules-capture/rules_capture/runtime/value.leavingSet#3=map["k":1]`
	if got != want {
		t.Errorf("outgoing:\n got %s\nwant %s", got, want)
	}
	in := Encoder{Objects: newTable()}
	Encode(&in, mk())
	whole, err := Render(in.Buf)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(whole, `map["secret":424242]`) || strings.Count(whole, "424242") != 3 {
		t.Errorf("entering: %s, want the whole contents", whole)
	}

	d := Decoder{Buf: out.Buf, Resolver: newTable()}
	o := Decode[*leavingObj](&d)
	if d.Err != nil {
		t.Fatal(d.Err)
	}
	if o.Name != "a" || o.Size != 2 || o.items != nil || o.hidden != 0 || o.Sub == nil || o.Sub.Name != "b" {
		t.Errorf("decoded %+v", o)
	}
}

// An exported type embedding a pointer to an unexported one, go-cache's
// `type Cache struct{ *cache }`, and one embedding it through an
// unexported struct held by value.
type (
	leavingOuter struct {
		*leavingHidden
		Label string
	}
	leavingHidden struct {
		Count int
		items map[string]int
	}
	leavingUnexternal struct{ name string } // not observed: never written
	leavingPromoting  struct {
		leavingVia
		*leavingUnexternal
	}
	leavingVia struct{ *leavingHidden }
)

// TestOutgoingObjectTiesEmbeddedPointers: an observed object leaving the
// set on first sight writes, after its exported fields, the objects its
// unexported embedded pointers to observed types hold (also through an
// unexported struct it embeds by value), with their own exported fields
// (a field promoted through a pointer is the inner object's, not the outer
// one's),
// so that the inner object the promoted methods get as their receiver is
// one the log has already tied to the outer one. An embedded pointer to a
// type outside the set is left out. A player of a log of format 11 or
// before leaves them all out (SetUntiedEmbeds), as those logs hold them.
// The decoder reads the pointer back by its name.
func TestOutgoingObjectTiesEmbeddedPointers(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeFor[leavingOuter](), reflect.TypeFor[leavingHidden](), reflect.TypeFor[leavingPromoting]()} {
		RegisterOwnType(typ)
	}
	inner := &leavingHidden{Count: 3, items: map[string]int{"secret": 424242}}
	const pkg = "github.com/rules-capture/rules_capture/runtime/value."
	render := func(v any) string {
		t.Helper()
		out := Encoder{Objects: newTable(), Outgoing: true}
		switch v := v.(type) {
		case *leavingOuter:
			Encode(&out, v)
		case *leavingPromoting:
			Encode(&out, v)
		}
		got, err := Render(out.Buf)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	outer := &leavingOuter{leavingHidden: inner, Label: "x"}
	promoting := &leavingPromoting{leavingVia{inner}, &leavingUnexternal{"y"}}
	for _, c := range []struct {
		v          any
		tied, want string
	}{
		{outer, `*` + pkg + `leavingOuter#1={Label: "x", leavingHidden: *` + pkg + `leavingHidden#2={Count: 3}}`,
			`*` + pkg + `leavingOuter#1={Label: "x"}`},
		{promoting, `*` + pkg + `leavingPromoting#1={leavingHidden: *` + pkg + `leavingHidden#2={Count: 3}}`,
			`*` + pkg + `leavingPromoting#1={}`},
	} {
		if got := render(c.v); got != c.tied {
			t.Errorf("format 12:\n got %s\nwant %s", got, c.tied)
		}
		SetUntiedEmbeds(true)
		got := render(c.v)
		SetUntiedEmbeds(false)
		if got != c.want {
			t.Errorf("format 11:\n got %s\nwant %s", got, c.want)
		}
	}

	out := Encoder{Objects: newTable(), Outgoing: true}
	Encode(&out, outer)
	d := Decoder{Buf: out.Buf, Resolver: newTable()}
	o := Decode[*leavingOuter](&d)
	if d.Err != nil {
		t.Fatal(d.Err)
	}
	if o.Label != "x" || o.leavingHidden == nil || o.Count != 3 || o.items != nil {
		t.Errorf("decoded %+v", o)
	}
}
