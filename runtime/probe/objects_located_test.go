package probe

import (
	"reflect"
	"runtime"
	"testing"
	"unsafe"

	"github.com/rules-capture/rules_capture/runtime/value"
)

type locParams struct{ Keys, Values []string }

type locCtx struct {
	Path   string
	Params locParams
}

var locSink []any // keeps the test's objects on the heap

// TestLocatedParts: a pointer into a heap object past its start keeps an
// ID of its own, and the table says where it lies, once: at its own first
// sight when the object it lies in crossed before (chi's
// rctx.URLParams.Add), else at that object's first sight as a type large
// enough to hold it (expr's ast.Patch(&p.Node, n) before p crosses). A
// pointer the known object is too small to hold, and one into an object
// that never crosses, are not located; nor is a package variable's field.
func TestLocatedParts(t *testing.T) {
	o := newObjects()
	id := func(p any) (uint64, bool, []value.Location) {
		v := reflect.ValueOf(p)
		got, first, _ := o.ID(v, value.TypeName(v.Type()), true)
		var at []value.Location
		if first {
			at = o.Located(got, v)
		}
		return got, first, at
	}
	off := unsafe.Offsetof(locCtx{}.Params)

	// The enclosing object first.
	c := &locCtx{Path: "/"}
	locSink = append(locSink, c)
	cid, _, at := id(c)
	if at != nil {
		t.Fatalf("the context's first sight located %v", at)
	}
	pid, first, at := id(&c.Params)
	if !first || pid == cid {
		t.Fatalf("&c.Params: ID %d (first %v), the context's %d", pid, first, cid)
	}
	if want := []value.Location{{ID: pid, In: cid, Off: off}}; !reflect.DeepEqual(at, want) {
		t.Fatalf("&c.Params located %v, want %v", at, want)
	}
	if again, _, at := id(&c.Params); again != pid || at != nil {
		t.Fatalf("&c.Params again: ID %d, located %v", again, at)
	}

	// The part first.
	d := &locCtx{Path: "/d"}
	locSink = append(locSink, d)
	qid, _, at := id(&d.Params)
	if at != nil {
		t.Fatalf("&d.Params before d located %v", at)
	}
	runtime.GC() // the waiting part survives a collection of nothing it needs
	did, _, at := id(d)
	if want := []value.Location{{ID: qid, In: did, Off: off}}; !reflect.DeepEqual(at, want) {
		t.Fatalf("d after &d.Params located %v, want %v", at, want)
	}
	if o.nparts != 0 || len(o.parts) != 0 {
		t.Fatalf("parts left waiting: %d %v", o.nparts, o.parts)
	}

	// Known as too small a type: its first field's.
	e := &locCtx{Path: "/e"}
	locSink = append(locSink, e)
	id(&e.Path) // the context's address, seen as a *string
	_, _, at = id(&e.Params)
	if at != nil {
		t.Fatalf("&e.Params in an object known as a string located %v", at)
	}
	eid, first, at := id(e) // seen as the whole context: the part is located now
	if !first || len(at) != 1 || at[0].In != eid || at[0].Off != off {
		t.Fatalf("e as the whole context (first %v) located %v", first, at)
	}

	// A package variable's field.
	if _, _, at := id(&locVar.Params); at != nil {
		t.Fatalf("a package variable's field located %v", at)
	}
	if o.nties.Load() != 0 {
		t.Fatalf("%d IDs' Locations not taken", o.nties.Load())
	}
}

var locVar locCtx
