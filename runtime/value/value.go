// Package value is the value encoding of rules_capture: how arguments,
// results, panic values and errors that cross the boundary of the observed
// set are written into an event's Values column and read back in replay
// (docs/value-encoding.md).
//
// An encoded value is self-describing: a tag byte followed by its payload.
// Scalars and struct values carry no type name (the call site knows its
// static types); references, observed objects, interface contents and
// errors carry the dynamic type name so that a log can be rendered without
// the program (Render) and replay can rebuild values of the right dynamic
// type.
//
// Encoding is deterministic (map entries are sorted by their encoded key),
// so replay compares outgoing values byte for byte.
package value

import (
	"encoding/binary"
	"math"
)

// Tags. The numeric values are part of the log format: append only.
const (
	TagNil        byte = iota // nil pointer, slice, map, interface, error, func, chan
	TagFalse                  // bool false
	TagTrue                   // bool true
	TagInt                    // signed integer: zigzag varint
	TagUint                   // unsigned integer: uvarint
	TagFloat                  // float32/float64: 8 bytes, IEEE 754 bits, little endian
	TagComplex                // complex64/complex128: two floats
	TagString                 // uvarint length, bytes
	TagBytes                  // []byte: uvarint length, bytes
	TagList                   // slice or array: uvarint n, n values
	TagMap                    // uvarint n, n (key, value) pairs sorted by encoded key
	TagStruct                 // format 1 only (see TagRecord): type name, uvarint n, n field values in declaration order
	TagRef                    // unobserved reference (pointer, chan, func, unsafe pointer): type name, uvarint object ID
	TagObject                 // pointer to an observed type: type name, uvarint object ID, then TagNil or the pointee on first sight
	TagIface                  // non-nil interface holding a non-error value: dynamic type name, value (a TagRef/TagObject of that type with an empty name, format 2 on)
	TagError                  // error: dynamic type name, message string, uvarint n, n wrapped errors
	TagSentinel               // an exported package-level variable by its name: an error variable observed code compares with ("io.EOF"), or a registered value of a type replay cannot name ("net/http.NoBody", RegisterSentinelValue)
	TagTypedError             // error of a registered type, rebuilt by value in replay: type name, value of the type (pointee for pointer types; for a pointer to an observed type, the pointer, TagObject/TagRef, by identity)
	TagTime                   // time.Time: zigzag unix seconds, uvarint nanoseconds, zone name string, zigzag zone offset
	TagTruncated              // a value nested deeper than MaxDepth
	TagOpaque                 // a value of an interface's dynamic type unknown to replay: type name, rendered text
	TagImplements             // prefix of an interface value or error whose dynamic type replay cannot rebuild: uvarint n, n names of asserted interfaces it implements beyond its static type; the value follows
	TagRecord                 // struct value (format 2 on): uvarint n, n field values in declaration order; the type is the slot's static type
	TagExported               // the pointee of an observed object of struct type leaving the set on first sight (format 3 on): uvarint n, n (field name, value) of its exported fields
	TagRedacted               // a secret string or []byte (redact.go): RedactHashLen bytes of its keyed hash, never its content
	// a reflect.Type, by the type it describes: its name (reflecttype.go);
	// replay answers with the type of that name in its build
	TagReflectType
	// a slice as a view of its backing array (sliceview.go): uvarint array
	// ID, uvarint capacity, then the slice's value (TagBytes or TagList)
	TagView
	// a reflect.Value, by what it refers to (reflectvalue.go): a flags
	// byte (valid, addressable, read-only); if valid, the name of its type
	// and then, if addressable, a pointer to the memory it describes (an
	// object with contents), else its value of that type
	TagReflectValue
	// a prefix of a reference or observed object (format 11 on): uvarint
	// object ID, uvarint ID of the object it lies in, uvarint byte offset
	// there; the reference it belongs to follows (located.go)
	TagAt
	numTags
)

// LastNamedStructFormat is the last log format version whose values write
// struct values as TagStruct, with their type name; later versions write
// TagRecord. Upgrade rewrites such values.
const LastNamedStructFormat = 1

// LastWholeObjectFormat is the last log format version whose observed
// objects leaving the set (an incall's result, an outcall's argument) carry
// their whole pointee on first sight, unexported fields included; later
// versions write only the exported fields of a struct (TagExported), which
// is what external code can read (docs/design/boundary-model.md).
// Replay of an older log encodes the replayed code's objects the old way.
const LastWholeObjectFormat = 2

// MaxDepth bounds the nesting of encoded values (cyclic data built from
// values, deep lists); deeper values are written as TagTruncated. From log
// format 11 it counts the levels within one object's contents: the pointee
// an object carries on its first sight starts again at depth 0, so that a
// structure of objects deeper than MaxDepth (a long expression's syntax
// tree, a linked list) crossing for the first time keeps every object's
// contents. Each object's contents are written once per encoding, so this
// stays linear in the objects written; MaxObjectNesting bounds the objects
// nested in one another (and so the encoder's stack).
const MaxDepth = 32

// MaxObjectNesting bounds how many objects with contents one value's
// encoding holds nested in one another (format 11 on); the contents of an
// object nested deeper are written truncated, as before format 11.
const MaxObjectNesting = 10000

// LastPerLevelDepthFormat is the last log format version whose MaxDepth
// counts every level of a value, objects' contents included: the contents
// of an object first seen nested deeper than MaxDepth are written
// truncated. A player of such a log encodes so too (SetPerLevelDepth), so
// that its values compare equal.
const LastPerLevelDepthFormat = 10

// perLevelDepth: MaxDepth counts every level of a value, as logs of
// LastPerLevelDepthFormat and before hold them. Set by replay of such a log
// before any stream runs.
var perLevelDepth bool

// SetPerLevelDepth makes the encoders count MaxDepth over every level of a
// value (true) or within each object's contents (false, the default).
func SetPerLevelDepth(perLevel bool) { perLevelDepth = perLevel }

// contentsDepth returns the depth at which the contents of an object
// written at depth are encoded, and whether they start a nesting of their
// own (the caller then counts it in objNest while writing them).
func (e *Encoder) contentsDepth(depth int) (int, bool) {
	if perLevelDepth || e.objNest >= MaxObjectNesting {
		return depth + 1, false
	}
	return 0, true
}

// AppendInt appends a signed integer.
func AppendInt(b []byte, v int64) []byte {
	b = append(b, TagInt)
	return binary.AppendVarint(b, v)
}

// AppendUint appends an unsigned integer.
func AppendUint(b []byte, v uint64) []byte {
	b = append(b, TagUint)
	return binary.AppendUvarint(b, v)
}

// AppendBool appends a boolean.
func AppendBool(b []byte, v bool) []byte {
	if v {
		return append(b, TagTrue)
	}
	return append(b, TagFalse)
}

// AppendFloat appends a float (float32 values are widened exactly).
func AppendFloat(b []byte, v float64) []byte {
	b = append(b, TagFloat)
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
}

// AppendString appends a string.
func AppendString(b []byte, s string) []byte {
	b = append(b, TagString)
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// AppendBytes appends a byte slice; a nil slice is written as TagNil.
func AppendBytes(b []byte, p []byte) []byte {
	if p == nil {
		return append(b, TagNil)
	}
	b = append(b, TagBytes)
	b = binary.AppendUvarint(b, uint64(len(p)))
	return append(b, p...)
}

// appendName appends a type or sentinel name (no tag).
func appendName(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// AppendRef appends a reference (TagRef) to object id, whose type is named
// name (empty: the enclosing interface value's dynamic type), as the
// encoder writes one: replay rewrites a reference it wrote to an ID the
// capture gave the same object (probe's function values numbered by code).
func AppendRef(b []byte, name string, id uint64) []byte {
	b = append(b, TagRef)
	b = appendName(b, name)
	return binary.AppendUvarint(b, id)
}
