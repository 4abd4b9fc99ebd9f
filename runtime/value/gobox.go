package value

import (
	"reflect"
	"unsafe"
)

// Go keeps some values it converts to an interface in static memory
// instead of a new heap box (cmd/compile's walk/convert.go, runtime's
// convT16, convT32, convT64, convTstring, convTslice): a bool or a
// one-byte integer, and a value of 2, 4 or 8 bytes without pointers whose
// bits are below 256, in the runtime's staticuint64s array; an empty
// string and a nil slice at zeroVal. Code that takes the address of the
// value inside an interface through unsafe (go-spew's unsafeReflectValue,
// then v.Addr(), to call a pointer method) sees one object for every such
// conversion of one value. reflect, which replay's decoder sets interfaces
// with, boxes every value anew, so the capture's one object was fresh
// objects in replay, each with an ID of its own: "different arguments" at
// a method call on it (go-spew's TestFormatter, `String` on a
// `*panicer` at common.go:137). goBox puts the value where Go's own
// conversion of a variable would have.

var (
	staticUint64s unsafe.Pointer // &runtime.staticuint64s[0], or nil where the layout is not Go's as seen here
	zeroValAt     unsafe.Pointer // &runtime.zeroVal[0], or nil
	boxProbe      = []uint64{0, 1, 255}
	boxProbeStr   = []string{""}
)

// boxSink makes the conversions in init escape, as a conversion whose
// interface is passed on does: one that stays on the stack is boxed there.
var boxSink [6]any

func init() {
	var one uint16 = 1
	if *(*byte)(unsafe.Pointer(&one)) != 1 {
		return // big-endian: the offsets differ; keep reflect's boxes
	}
	boxSink[0], boxSink[1], boxSink[2], boxSink[3] = boxProbe[0], boxProbe[1], boxProbe[2], boxProbe[0]
	pa := dataWord(&boxSink[0])
	if uintptr(dataWord(&boxSink[1])) != uintptr(pa)+8 || uintptr(dataWord(&boxSink[2])) != uintptr(pa)+255*8 || dataWord(&boxSink[3]) != pa {
		return
	}
	staticUint64s = pa
	boxSink[4], boxSink[5] = boxProbeStr[0], boxProbeStr[0]
	if p := dataWord(&boxSink[4]); p == dataWord(&boxSink[5]) {
		zeroValAt = p
	}
	boxSink = [6]any{}
}

// dataWord is the data word of the interface value at p.
func dataWord(p *any) unsafe.Pointer { return (*[2]unsafe.Pointer)(unsafe.Pointer(p))[1] }

// goBox makes interface value v (settable, holding a value that replay
// decoded) hold its dynamic value where Go's conversion would have put
// it, if that is static memory.
func goBox(v reflect.Value) {
	if staticUint64s == nil || v.Kind() != reflect.Interface || v.IsNil() || !v.CanAddr() {
		return
	}
	t := v.Elem().Type()
	word := &(*[2]unsafe.Pointer)(v.Addr().UnsafePointer())[1]
	data := *word
	var static unsafe.Pointer
	switch size := t.Size(); {
	case size == 0 || !PointerFree(t):
		if zeroValAt == nil {
			return
		}
		switch soleKind(t) {
		case reflect.String:
			if (*reflect.StringHeader)(data).Len == 0 {
				static = zeroValAt
			}
		case reflect.Slice:
			if (*reflect.SliceHeader)(data).Data == 0 {
				static = zeroValAt
			}
		}
	case size == 1:
		if k := soleKind(t); k == reflect.Bool || isIntKind(k) {
			static = unsafe.Add(staticUint64s, 8*uintptr(*(*uint8)(data)))
		}
	case size == 2 && t.Align() == 2:
		if n := *(*uint16)(data); n < 256 {
			static = unsafe.Add(staticUint64s, 8*uintptr(n))
		}
	case size == 4 && t.Align() == 4:
		if n := *(*uint32)(data); n < 256 {
			static = unsafe.Add(staticUint64s, 8*uintptr(n))
		}
	case size == 8 && t.Align() == 8:
		if n := *(*uint64)(data); n < 256 {
			static = unsafe.Add(staticUint64s, 8*uintptr(n))
		}
	}
	if static != nil {
		*word = static
	}
}

// PointerFree reports whether values of t hold no pointers (numbers,
// booleans, arrays and structs of them): they may live in static memory,
// and memory of another type may be seen as a t without the garbage
// collector finding pointers where there are none.
func PointerFree(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return true
	case reflect.Array:
		return t.Len() == 0 || PointerFree(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if !PointerFree(t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return false
}

// soleKind is the kind of t's one component (cmd/compile's SoleComponent:
// through structs of one non-blank field and arrays of one element), or
// t's own kind.
func soleKind(t reflect.Type) reflect.Kind {
	for {
		switch {
		case t.Kind() == reflect.Struct && t.NumField() == 1 && t.Field(0).Name != "_":
			t = t.Field(0).Type
		case t.Kind() == reflect.Array && t.Len() == 1:
			t = t.Elem()
		default:
			return t.Kind()
		}
	}
}

func isIntKind(k reflect.Kind) bool {
	switch k {
	case reflect.Int8, reflect.Uint8:
		return true
	}
	return false
}
