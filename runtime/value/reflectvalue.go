package value

import (
	"fmt"
	"reflect"
	"strings"
	"unsafe"
)

// reflect.Value values (docs/design/reflection.md, "A reflect.Value
// crossing the boundary"). Reflection runs natively in observed code, so a
// reflect.Value that crosses the boundary (an outcall's result, a field of
// a recorded value, an exported parameter or result, a map value) must
// reach replay as a reflect.Value of the same kind over the same value: a
// placeholder struct of its three words would make native reflection walk
// nothing. A reflect.Value is therefore written as what it refers to
// (TagReflectValue): whether it is valid, addressable and read-only (read
// through an unexported field), the name of its type as a reflect.Type is
// named (reflectTypeName), and then
//
//   - for an addressable value, a pointer to the memory it describes,
//     recorded deeply (an object with an ID and its contents, whatever its
//     type's package), so that replay binds it to the same object as every
//     other reference to that memory and native writes through it land
//     there;
//   - for any other value, the value itself, deeply.
//
// Replay makes the type by its name (ReflectTypeByName), decodes the
// pointer or the value, and makes a reflect.Value of it with the same
// flags: ptr.Elem() for an addressable one, a non-addressable copy
// otherwise; a read-only one is marked so, as reflect marks a value read
// through an unexported field (CanInterface false, Set panics).

// reflectValueType is reflect.Value's own type.
var reflectValueType = reflect.TypeFor[reflect.Value]()

// Flags of a TagReflectValue.
const (
	rvValid    = 1 << iota // a valid reflect.Value (else the zero Value: nothing follows)
	rvAddr                 // addressable: a pointer to its memory follows
	rvReadOnly             // obtained through an unexported field: CanInterface is false
)

// reflect's flag bits (reflect/value.go), which a reflect.Value holds in
// its third word: stable since Go 1.10, and checked at start-up
// (flagsUsable) before they are used.
const (
	flagStickyRO uintptr = 1 << 5
	flagEmbedRO  uintptr = 1 << 6
	flagRO               = flagStickyRO | flagEmbedRO
	flagAddr     uintptr = 1 << 8
)

// rvHeader is reflect.Value's layout: its type, its data, its flags.
type rvHeader struct {
	typ  unsafe.Pointer
	ptr  unsafe.Pointer
	flag uintptr
}

// flagsUsable: reflect.Value's layout and flag bits are the ones above in
// this Go release (a value read through an unexported field carries
// flagRO and loses it when cleared; an element of a pointer carries
// flagAddr). Otherwise read-only values are written as opaque and replay
// refuses to make flags it cannot set.
var flagsUsable = func() bool {
	if unsafe.Sizeof(reflect.Value{}) != unsafe.Sizeof(rvHeader{}) {
		return false
	}
	type probe struct{ hidden int }
	ro := reflect.ValueOf(probe{hidden: 7}).Field(0)
	h := (*rvHeader)(unsafe.Pointer(&ro))
	if ro.CanInterface() || h.flag&flagRO == 0 {
		return false
	}
	h.flag &^= flagRO
	if !ro.CanInterface() || ro.Interface() != any(7) {
		return false
	}
	x := 3
	ad := reflect.ValueOf(&x).Elem()
	ha := (*rvHeader)(unsafe.Pointer(&ad))
	if ha.flag&flagAddr == 0 {
		return false
	}
	ha.flag &^= flagAddr
	return !ad.CanAddr() && ad.Int() == 3
}()

// withFlags returns v with the flag bits set set and clear cleared.
func withFlags(v reflect.Value, set, clear uintptr) reflect.Value {
	h := (*rvHeader)(unsafe.Pointer(&v))
	h.flag = h.flag&^clear | set
	return v
}

func init() {
	RegisterType(reflectValueType) // a reflect.Value in an interface slot
}

// encReflectValue is the plan encoder of reflect.Value.
func encReflectValue(e *Encoder, _ *encPlan, p unsafe.Pointer, depth int) {
	e.appendReflectValue(*(*reflect.Value)(p), depth)
}

// appendReflectValue appends rv as what it refers to.
func (e *Encoder) appendReflectValue(rv reflect.Value, depth int) {
	e.Buf = append(e.Buf, TagReflectValue)
	if !rv.IsValid() {
		e.Buf = append(e.Buf, 0)
		return
	}
	flags := byte(rvValid)
	readOnly := !rv.CanInterface()
	if readOnly {
		if !flagsUsable {
			e.Buf = append(e.Buf, flags)
			e.Buf = appendName(e.Buf, reflectTypeName(rv.Type()))
			e.Buf = append(e.Buf, TagOpaque)
			e.Buf = appendName(e.Buf, TypeName(rv.Type()))
			e.Buf = appendName(e.Buf, "read-only "+rv.Kind().String())
			return
		}
		flags |= rvReadOnly
		rv = withFlags(rv, 0, flagRO)
	}
	if rv.CanAddr() {
		flags |= rvAddr
	}
	e.Buf = append(e.Buf, flags)
	e.Buf = appendName(e.Buf, reflectTypeName(rv.Type()))
	if depth+1 > MaxDepth {
		e.Buf = append(e.Buf, TagTruncated)
		return
	}
	// What a reflect.Value refers to is recorded deeply, with the state of
	// every object it reaches at this sight: native reflection in replay
	// reads it all.
	deep, refresh := e.Deep, e.Refresh
	e.Deep, e.Refresh = true, true
	if rv.CanAddr() {
		ptr := reflect.NewAt(rv.Type(), unsafe.Pointer(rv.UnsafeAddr()))
		e.pointer(planFor(ptr.Type()), ptr, ptr.UnsafePointer(), depth+1)
	} else {
		e.encode(rv, depth+1)
	}
	e.Deep, e.Refresh = deep, refresh
	if !refresh {
		e.ResetRefresh()
	}
}

// decodeReflectValue reads a TagReflectValue into v, a reflect.Value slot.
func (d *Decoder) decodeReflectValue(v reflect.Value, depth int) {
	d.Off++
	flags := d.byte()
	if d.Err != nil {
		return
	}
	if flags&rvValid == 0 {
		v.SetZero()
		return
	}
	name := d.name()
	if d.Err != nil {
		return
	}
	t, ok := ReflectTypeByName(name)
	if !ok {
		d.Err = fmt.Errorf("%w: %s, the type of a recorded reflect.Value (declared inside a function, in a _test.go file or in package main, a struct literal with an unexported field that the binary does not hold or embedding a type with methods, an interface literal with methods, or an unexported type of another package that the replay binary does not link)", ErrUnbuiltReflectType, name)
		return
	}
	if d.peek() == TagOpaque {
		d.fail("a read-only reflect.Value of type %s was recorded without its value (this Go release's reflect.Value flags are not known)", name)
		return
	}
	if !flagsUsable {
		d.fail("this Go release's reflect.Value flags are not known: cannot make a reflect.Value of type %s with the recorded flags", name)
		return
	}
	// Values inside are rebuilt with their own dynamic types where the
	// binary links them, as reflected arguments are: native reflection
	// walks them.
	linked := d.Linked
	d.Linked = true
	var rv reflect.Value
	if flags&rvAddr != 0 {
		p := reflect.New(reflect.PointerTo(t)).Elem()
		d.decode(p, depth+1)
		if d.Err == nil && p.IsNil() {
			d.fail("an addressable reflect.Value of type %s was recorded without its memory", name)
		}
		if d.Err == nil {
			rv = p.Elem()
		}
	} else {
		x := reflect.New(t).Elem()
		d.decode(x, depth+1)
		rv = withFlags(x, 0, flagAddr)
	}
	d.Linked = linked
	if d.Err != nil {
		return
	}
	if flags&rvReadOnly != 0 {
		rv = withFlags(rv, flagStickyRO, 0)
	}
	v.Set(reflect.ValueOf(rv))
}

// renderReflectValue renders a TagReflectValue (its tag read):
// reflect.Value(T addressable read-only: value).
func renderReflectValue(sb *strings.Builder, d *Decoder, depth int) {
	flags := d.byte()
	if d.Err != nil {
		return
	}
	if flags&rvValid == 0 {
		sb.WriteString("reflect.Value(invalid)")
		return
	}
	sb.WriteString("reflect.Value(")
	sb.WriteString(d.name())
	if flags&rvAddr != 0 {
		sb.WriteString(" addressable")
	}
	if flags&rvReadOnly != 0 {
		sb.WriteString(" read-only")
	}
	sb.WriteString(": ")
	render(sb, d, depth+1)
	sb.WriteString(")")
}
