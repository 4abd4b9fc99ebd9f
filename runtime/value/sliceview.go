package value

import (
	"encoding/binary"
	"reflect"
	"strconv"
	"strings"
	"unsafe"
)

// Slices as views of their backing arrays (TagView).
//
// A slice crosses the boundary by value, yet it is a view: observed code
// keeps the caller's input and hands out subslices of it (go-toml's
// unstable.Parser: Node.Data, Parser.Raw), tells where a subslice lies by
// the difference of the capacities (Parser.Range), or reads what the
// caller wrote through another view of the same array. Rebuilt by value,
// every slice in replay is an array of its own, as long as the slice: the
// capacities, and with them the offsets, differ, and writes through one
// view do not show in another.
//
// So the capture numbers the backing arrays of the slices that cross (in
// the object ID space: Arrays) and writes a slice as a view: the array's
// ID, the slice's capacity (its distance from the end of the array, which
// every subslice of a slice keeps), then the elements as before. Replay
// makes one array per ID, as large as the largest capacity seen first, and
// rebuilds each view at its distance from that array's end, with the
// recorded elements copied in (ArrayResolver); the replayed code's own
// views are numbered by the same rules, so its results compare byte for
// byte with the log's.

// LastPlainSliceFormat is the last log format version that writes every
// slice by value; later versions write a slice with a non-empty capacity
// as a view (TagView). Replay of an older log writes the replayed code's
// slices by value, as the log holds them.
const LastPlainSliceFormat = 6

// Arrays is implemented by an encoder's Objects that numbers the backing
// arrays of slices.
type Arrays interface {
	// Array returns the ID of the array in which the slice starting at
	// data with capacity c (> 0) of elements of type elem ends, numbering
	// it on first sight; 0 writes the slice by value (the array has no
	// identity, or the log's format predates views).
	Array(data unsafe.Pointer, c int, elem reflect.Type) uint64
}

// ArrayResolver is implemented by a decoder's Resolver that rebuilds views.
type ArrayResolver interface {
	// View returns a slice of s's type aliasing the replay array of id:
	// s's length, capacity c, ending where that array ends, with s's
	// elements copied into it.
	View(id uint64, c int, s reflect.Value) reflect.Value
}

// SliceBytes appends b as Bytes does, as a view of its array if the
// encoder's Objects numbers arrays.
func (e *Encoder) SliceBytes(b []byte) {
	e.bytesView(b, byteType)
}

// bytesView appends b as Bytes does, after its view prefix unless b is a
// secret written redacted: replay's stand-in for a secret is a slice of
// its own length and capacity, so the view of the original's array would
// not compare.
func (e *Encoder) bytesView(b []byte, elem reflect.Type) {
	if known(unsafe.String(unsafe.SliceData(b), len(b))) == nil {
		e.view(unsafe.Pointer(unsafe.SliceData(b)), cap(b), elem)
	}
	e.Bytes(b)
}

var byteType = reflect.TypeFor[byte]()

// view writes the prefix of a slice of c > 0 elements of type elem at
// data, if the encoder's Objects numbers arrays.
func (e *Encoder) view(data unsafe.Pointer, c int, elem reflect.Type) {
	a, ok := e.Objects.(Arrays)
	if !ok || c == 0 {
		return
	}
	if id := a.Array(data, c, elem); id != 0 {
		e.Buf = append(e.Buf, TagView)
		e.Buf = binary.AppendUvarint(e.Buf, id)
		e.Buf = binary.AppendUvarint(e.Buf, uint64(c))
	}
}

// maxViewBytes bounds the array a view's capacity makes replay allocate
// (a corrupt log's capacity); a larger one is rebuilt by value.
const maxViewBytes = 1 << 34

// decodeView reads a view into v, a slice: the elements that follow as
// before, then the replay array's view of them.
func (d *Decoder) decodeView(v reflect.Value, depth int) {
	d.Off++
	id := d.uvarint()
	c := d.uvarint()
	d.decode(v, depth)
	if d.Err != nil || v.IsNil() || c < uint64(v.Len()) || c > maxViewBytes/uint64(max(v.Type().Elem().Size(), 1)) {
		return
	}
	if r, ok := d.Resolver.(ArrayResolver); ok {
		v.Set(r.View(id, int(c), v))
	}
}

// renderView renders a view's prefix as `view#ID/cap `, the elements
// follow.
func renderView(sb *strings.Builder, d *Decoder) {
	id := d.uvarint()
	c := d.uvarint()
	if d.seenRef != nil && d.Err == nil {
		d.seenRef(id, "")
	}
	sb.WriteString("view#")
	sb.WriteString(strconv.FormatUint(id, 10))
	sb.WriteString("/")
	sb.WriteString(strconv.FormatUint(c, 10))
	sb.WriteString(" ")
}
