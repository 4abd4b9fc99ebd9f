package value

import (
	"encoding/binary"
	"reflect"
	"strconv"
	"strings"
)

// Objects inside objects. The capture numbers an object by its address, so
// a pointer into an object that is not at its start (&ctx.Params, the
// address of a field that is not the first) gets an object ID of its own.
// Replay, which makes each ID's object, would make that one apart from the
// object it lies in: a method that fills it through the pointer (chi's
// rctx.URLParams.Add) fills memory that the enclosing object does not see,
// and the field's address that observed code takes later (&p.Node) is a new
// pointer where the log holds the known one.
//
// From format 11 the log says where such an ID lies: a TagAt prefix before
// a reference or observed object gives the interior ID, the ID of the
// object it lies in and its byte offset there. It is written once per
// interior ID: at the interior pointer's first sight when the enclosing
// object has crossed before, else at the enclosing object's first sight
// (as large a type as holds the interior one) when the interior pointer
// crossed first. Replay reads every prefix of the log before it starts
// (probe's numbering pass) and makes the interior ID's object the field of
// the enclosing one's, making that one early if the interior pointer comes
// first; it compares its encodings with the log's values without the
// prefixes (StripLocations) and checks them against its objects.

// A Location says that object ID lies in object In, Off bytes from its
// start.
type Location struct {
	ID, In uint64
	Off    uintptr
}

// A Locator is an object table (Objects) that knows where objects lie in
// others (the capture's). The encoder asks it at every first sight of an
// object, right after ID, for the Locations to write before the object's
// reference.
type Locator interface {
	Located(id uint64, v reflect.Value) []Location
}

// An InteriorResolver is a Resolver that can make an object the log
// locates in another one (Location) as a part of that one.
type InteriorResolver interface {
	// Interior returns, for an object id that the log locates in another,
	// a pointer of type t to its place in the object it lies in, making
	// that object if need be; false if the log does not locate id or
	// replay cannot (the enclosing object's type holds no t there).
	Interior(id uint64, t reflect.Type) (reflect.Value, bool)
}

// appendAt appends a TagAt prefix.
func appendAt(b []byte, l Location) []byte {
	b = append(b, TagAt)
	b = binary.AppendUvarint(b, l.ID)
	b = binary.AppendUvarint(b, l.In)
	return binary.AppendUvarint(b, uint64(l.Off))
}

// at reads a TagAt prefix, its tag included, and reports it to seenAt.
func (d *Decoder) at() Location {
	start := d.Off
	d.Off++
	l := Location{ID: d.uvarint(), In: d.uvarint(), Off: uintptr(d.uvarint())}
	if d.seenAt != nil && d.Err == nil {
		d.seenAt(l)
	}
	if d.atSpan != nil && d.Err == nil {
		d.atSpan(start, d.Off)
	}
	return l
}

// StripLocations returns the encoded values b without their TagAt
// prefixes (b itself if it has none), and the Locations they held.
// Replay compares the values it encodes with the log's without them and
// checks the log's Locations against its objects: the capture writes a
// Location at the first encoding of an object in time, which concurrent
// goroutines may do in an event that comes later in the log than another
// sight of the object.
func StripLocations(b []byte) ([]byte, []Location, error) {
	var locs []Location
	var spans [][2]int
	d := &Decoder{Buf: b, seenAt: func(l Location) { locs = append(locs, l) },
		atSpan: func(start, end int) { spans = append(spans, [2]int{start, end}) }}
	for d.Off < len(b) && d.Err == nil {
		d.Skip()
	}
	if d.Err != nil || len(spans) == 0 {
		return b, nil, d.Err
	}
	return cutSpans(b, spans), locs, nil
}

// cutSpans returns b without the byte ranges spans (in order, apart); b
// itself when there are none.
func cutSpans(b []byte, spans [][2]int) []byte {
	if len(spans) == 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	last := 0
	for _, s := range spans {
		out = append(out, b[last:s[0]]...)
		last = s[1]
	}
	return append(out, b[last:]...)
}

// skipAt reads the TagAt prefixes at the decoder's position: the reference
// after them is decoded as any (replay learnt the locations before).
func (d *Decoder) skipAt() {
	for d.Err == nil && d.peek() == TagAt {
		d.at()
	}
}

// renderAt renders a TagAt prefix (its tag read).
func renderAt(sb *strings.Builder, d *Decoder) {
	d.Off--
	l := d.at()
	if d.Err != nil {
		return
	}
	sb.WriteString("at(#")
	sb.WriteString(strconv.FormatUint(l.ID, 10))
	sb.WriteString(" in #")
	sb.WriteString(strconv.FormatUint(l.In, 10))
	sb.WriteString("+")
	sb.WriteString(strconv.FormatUint(uint64(l.Off), 10))
	sb.WriteString(") ")
}

// ObjectRefsLocated is ObjectRefs that also calls at with every Location
// the values give (TagAt), where it appears: before the reference it
// belongs to.
func ObjectRefsLocated(b []byte, ref func(id uint64, name string), at func(Location)) error {
	d := &Decoder{Buf: b, seenRef: ref, seenAt: at}
	for d.Off < len(b) && d.Err == nil {
		d.Skip()
	}
	return d.Err
}

// HoldsAt reports whether a value of type outer holds a value of type
// inner off bytes from its start (a field, an element, at any depth; outer
// itself at offset 0): memory of type outer may be seen there as an inner
// without the garbage collector finding pointers where there are none.
func HoldsAt(outer reflect.Type, off uintptr, inner reflect.Type) bool {
	if off == 0 && outer == inner {
		return true
	}
	if off+inner.Size() > outer.Size() {
		return false
	}
	switch outer.Kind() {
	case reflect.Struct:
		for i := range outer.NumField() {
			f := outer.Field(i)
			if f.Offset <= off && off-f.Offset+inner.Size() <= f.Type.Size() && HoldsAt(f.Type, off-f.Offset, inner) {
				return true
			}
		}
	case reflect.Array:
		if es := outer.Elem().Size(); es > 0 {
			return HoldsAt(outer.Elem(), off%es, inner)
		}
	}
	return false
}
