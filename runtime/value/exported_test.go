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
