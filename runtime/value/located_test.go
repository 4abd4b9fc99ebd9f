package value

import (
	"bytes"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

type params struct{ Keys, Values []string }

type routeCtx struct {
	Path   string
	Params params
	Pairs  [2]params
}

// locatingTable is a table that locates every new pointer inside the one
// object registered as enclosing.
type locatingTable struct {
	*table
	in     unsafe.Pointer
	inSize uintptr
}

func (t *locatingTable) Located(id uint64, v reflect.Value) []Location {
	p := uintptr(v.UnsafePointer())
	base := uintptr(t.in)
	if p <= base || p >= base+t.inSize {
		return nil
	}
	return []Location{{ID: id, In: t.table.ids[t.in], Off: p - base}}
}

// interiorTable resolves located IDs into the enclosing object it holds.
type interiorTable struct {
	*table
	at map[uint64]Location
}

func (t *interiorTable) Interior(id uint64, typ reflect.Type) (reflect.Value, bool) {
	l, ok := t.at[id]
	if !ok {
		return reflect.Value{}, false
	}
	in := t.objs[l.In]
	if !HoldsAt(in.Type().Elem(), l.Off, typ.Elem()) {
		return reflect.Value{}, false
	}
	return reflect.NewAt(typ.Elem(), unsafe.Add(in.UnsafePointer(), l.Off)), true
}

// TestLocatedInteriorPointer: a pointer into an object that crossed before
// is written with a TagAt prefix that says where it lies; the prefix
// renders, ObjectRefsLocated reports it before the reference, and a
// resolver that knows it decodes the pointer into the enclosing object.
func TestLocatedInteriorPointer(t *testing.T) {
	c := &routeCtx{Path: "/x"}
	tab := &locatingTable{table: newTable(), in: unsafe.Pointer(c), inSize: unsafe.Sizeof(*c)}
	e := &Encoder{Objects: tab, Deep: true}
	Encode(e, c)
	Encode(e, &c.Params)
	Encode(e, &c.Params) // seen again: no prefix
	out, err := Render(e.Buf)
	if err != nil {
		t.Fatal(err)
	}
	off := unsafe.Offsetof(c.Params)
	want := "at(#2 in #1+" + itoa(off) + ") "
	if strings.Count(out, want) != 1 {
		t.Fatalf("rendered %s, want one %q", out, want)
	}

	var seen []string
	err = ObjectRefsLocated(e.Buf, func(id uint64, _ string) { seen = append(seen, "ref#"+itoa(uintptr(id))) },
		func(l Location) {
			seen = append(seen, "at#"+itoa(uintptr(l.ID))+"/"+itoa(uintptr(l.In))+"+"+itoa(l.Off))
		})
	if err != nil {
		t.Fatal(err)
	}
	if got, w := strings.Join(seen, " "), "ref#1 at#2/1+"+itoa(off)+" ref#2 ref#2"; got != w {
		t.Fatalf("walk %q, want %q", got, w)
	}

	// Without the prefix, the values are those of a table that locates
	// nothing.
	plain := &Encoder{Objects: newTable(), Deep: true}
	Encode(plain, c)
	Encode(plain, &c.Params)
	Encode(plain, &c.Params)
	stripped, locs, err := StripLocations(e.Buf)
	if err != nil || !bytes.Equal(stripped, plain.Buf) || len(locs) != 1 || locs[0] != (Location{ID: 2, In: 1, Off: off}) {
		t.Fatalf("StripLocations: %v, %v, equal to the plain encoding: %v", locs, err, bytes.Equal(stripped, plain.Buf))
	}
	if same, none, _ := StripLocations(plain.Buf); &same[0] != &plain.Buf[0] || none != nil {
		t.Fatalf("StripLocations of values without locations copied them or found %v", none)
	}

	// Decoding: the enclosing object is replay's; the interior pointer is
	// its field.
	dt := &interiorTable{table: newTable(), at: map[uint64]Location{2: {ID: 2, In: 1, Off: off}}}
	d := &Decoder{Buf: e.Buf, Resolver: dt}
	rc := Decode[*routeCtx](d)
	rp := Decode[*params](d)
	if d.Err != nil {
		t.Fatal(d.Err)
	}
	if rp != &rc.Params {
		t.Fatalf("interior pointer decoded to %p, want the field at %p", rp, &rc.Params)
	}
	if rp2 := Decode[*params](d); d.Err != nil || rp2 != rp {
		t.Fatalf("second sight %p, %v", rp2, d.Err)
	}
}

func itoa(n uintptr) string { return strconv.FormatUint(uint64(n), 10) }

func TestHoldsAt(t *testing.T) {
	var c routeCtx
	ctx, par, str := reflect.TypeFor[routeCtx](), reflect.TypeFor[params](), reflect.TypeFor[[]string]()
	for _, tc := range []struct {
		outer reflect.Type
		off   uintptr
		inner reflect.Type
		want  bool
	}{
		{ctx, 0, ctx, true},
		{ctx, unsafe.Offsetof(c.Params), par, true},
		{ctx, unsafe.Offsetof(c.Params) + unsafe.Offsetof(c.Params.Values), str, true},
		{ctx, unsafe.Offsetof(c.Pairs) + par.Size(), par, true}, // an array's second element
		{ctx, unsafe.Offsetof(c.Pairs) + 8, par, false},         // not at an element's start
		{ctx, unsafe.Offsetof(c.Params), str, true},             // the field's first field
		{ctx, unsafe.Offsetof(c.Params), ctx, false},            // larger than what is left
		{ctx, 8, par, false}, // inside the string header
		{ctx, 0, reflect.TypeFor[string](), true},
	} {
		if got := HoldsAt(tc.outer, tc.off, tc.inner); got != tc.want {
			t.Errorf("HoldsAt(%v, %d, %v) = %v, want %v", tc.outer, tc.off, tc.inner, got, tc.want)
		}
	}
}
