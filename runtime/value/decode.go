package value

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"time"
)

// Resolver gives replay's objects for the object IDs in a log.
type Resolver interface {
	// Ref returns the object bound to id, or a new placeholder for it whose
	// type is t (a pointer, chan, func or interface type) and whose recorded
	// type name is name.
	Ref(id uint64, name string, t reflect.Type) (reflect.Value, error)
	// Object returns the replay object bound to id, if any.
	Object(id uint64) (reflect.Value, bool)
	// Bind binds id to v (a pointer to an observed type).
	Bind(id uint64, v reflect.Value, name string)
	// Stand returns a placeholder of interface type t for a value of a
	// dynamic type this build does not know, recorded by value as raw.
	Stand(name string, raw []byte, t reflect.Type) (reflect.Value, error)
}

// A Decoder reads encoded values from Buf in order. The first problem is
// kept in Err; after it every read returns zero values.
type Decoder struct {
	Buf      []byte
	Off      int
	Resolver Resolver
	Err      error
	// Where describes the values read next for the stand-ins of redacted
	// ones (e.g. "an argument of example.com/auth.Check"); a struct field
	// is described by its name.
	Where string

	// seenRef is called with the object ID and recorded type name of every
	// reference and object that Skip reads (MaxObjectID, ObjectRefs).
	seenRef func(id uint64, name string)
	// seenAt is called with every Location (TagAt) that Skip reads
	// (ObjectRefsLocated).
	seenAt func(Location)
	// atSpan is called with the byte range of every TagAt prefix that Skip
	// reads (StripLocations).
	atSpan func(start, end int)
	// implSpan is called with the byte range of every TagImplements prefix
	// that Skip reads (StripImplements).
	implSpan func(start, end int)

	// whereT and whereF: the struct type and field whose value decode
	// reads next, if it reads a field: the description of a stand-in
	// handed out there (redact.go).
	whereT reflect.Type
	whereF string

	// objNest counts the objects whose contents decode or render is
	// reading, nested in one another (contents).
	objNest int

	// ifaceName is the dynamic type name of the interface value whose
	// contents decode reads next: a reference there with an empty type
	// name has this one (format 2).
	ifaceName string

	// Unbuilt is the dynamic type name of the first interface value that
	// decode could not rebuild as itself because this build does not know
	// the type: a stand-in took its place. Observed code that reflects over
	// the value would see the stand-in instead (probe.DecodeReflected).
	Unbuilt string

	// Linked: an interface value of a dynamic type that is not registered
	// is rebuilt as itself if the binary links the type (LinkedType), for
	// values that observed code reflects over (probe.DecodeReflected).
	Linked bool
	// NilUnbuilt: a value of a dynamic type this build cannot rebuild, for
	// whose interface no stand-in can be made either, is left nil and
	// named in Unbuilt rather than failing the decoding: for a caller that
	// ends on Unbuilt (probe.DecodeReflected).
	NilUnbuilt bool
}

// refName reads the type name of a reference or observed object; empty
// stands for the enclosing interface value's dynamic type name, outer.
func (d *Decoder) refName(outer string) string {
	if n := d.name(); n != "" || outer == "" {
		return n
	}
	return outer
}

func (d *Decoder) fail(format string, args ...any) {
	if d.Err == nil {
		d.Err = fmt.Errorf("%w at byte %d: %s", ErrCorrupt, d.Off, fmt.Sprintf(format, args...))
	}
}

func (d *Decoder) byte() byte {
	if d.Err != nil {
		return 0
	}
	if d.Off >= len(d.Buf) {
		d.fail("unexpected end of values")
		return 0
	}
	b := d.Buf[d.Off]
	d.Off++
	return b
}

func (d *Decoder) peek() byte {
	if d.Err != nil || d.Off >= len(d.Buf) {
		return 0xff
	}
	return d.Buf[d.Off]
}

func (d *Decoder) uvarint() uint64 {
	if d.Err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.Buf[d.Off:])
	if n <= 0 {
		d.fail("bad uvarint")
		return 0
	}
	d.Off += n
	return v
}

func (d *Decoder) varint() int64 {
	if d.Err != nil {
		return 0
	}
	v, n := binary.Varint(d.Buf[d.Off:])
	if n <= 0 {
		d.fail("bad varint")
		return 0
	}
	d.Off += n
	return v
}

func (d *Decoder) raw(n uint64) []byte {
	if d.Err != nil {
		return nil
	}
	if n > uint64(len(d.Buf)-d.Off) {
		d.fail("length %d beyond end of values", n)
		return nil
	}
	b := d.Buf[d.Off : d.Off+int(n)]
	d.Off += int(n)
	return b
}

func (d *Decoder) name() string { return string(d.raw(d.uvarint())) }

// count reads a length that must be plausible for the bytes left: every
// element takes at least one byte, so a hostile length cannot make replay
// allocate more than the log holds.
func (d *Decoder) count() int {
	n := d.uvarint()
	if n > uint64(len(d.Buf)-d.Off) {
		d.fail("count %d beyond end of values", n)
		return 0
	}
	return int(n)
}

func (d *Decoder) expect(tag byte) bool {
	got := d.byte()
	if d.Err != nil {
		return false
	}
	if got != tag {
		d.Off--
		d.fail("found %s where %s was expected", tagName(got), tagName(tag))
		return false
	}
	return true
}

// Int reads a signed integer.
func (d *Decoder) Int() int64 {
	if !d.expect(TagInt) {
		return 0
	}
	return d.varint()
}

// Uint reads an unsigned integer.
func (d *Decoder) Uint() uint64 {
	if !d.expect(TagUint) {
		return 0
	}
	return d.uvarint()
}

// Float reads a float.
func (d *Decoder) Float() float64 {
	if !d.expect(TagFloat) {
		return 0
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(d.raw(8)))
}

// Bool reads a boolean.
func (d *Decoder) Bool() bool {
	switch t := d.byte(); t {
	case TagTrue:
		return true
	case TagFalse:
		return false
	default:
		if d.Err == nil {
			d.Off--
			d.fail("found %s where a bool was expected", tagName(t))
		}
		return false
	}
}

// String reads a string (a stand-in for a redacted one).
func (d *Decoder) String() string {
	if d.peek() == TagRedacted {
		d.Off++
		return d.standIn()
	}
	if !d.expect(TagString) {
		return ""
	}
	return d.name()
}

// standIn reads the hash of a redacted value (its tag read) and returns
// the stand-in handed to observed code for it.
func (d *Decoder) standIn() string {
	h := d.decodeRedacted()
	if d.Err != nil {
		return ""
	}
	desc := d.Where
	if d.whereT != nil {
		desc = "field " + d.whereF + " of " + TypeName(d.whereT)
		d.whereT = nil
	}
	return standIn(h, desc)
}

// NextRedacted reports whether the next value is a redacted one.
func (d *Decoder) NextRedacted() bool {
	return d.Err == nil && d.Off < len(d.Buf) && d.Buf[d.Off] == TagRedacted
}

// Bytes reads a byte slice (nil stays nil; a stand-in for a redacted one).
func (d *Decoder) Bytes() []byte {
	switch d.peek() {
	case TagNil:
		d.Off++
		return nil
	case TagRedacted:
		d.Off++
		return []byte(d.standIn())
	case TagView:
		var b []byte
		d.decodeView(reflect.ValueOf(&b).Elem(), 0)
		return b
	}
	if !d.expect(TagBytes) {
		return nil
	}
	return append([]byte{}, d.raw(d.uvarint())...)
}

// Skip skips one value.
func (d *Decoder) Skip() {
	var sink strings.Builder
	render(&sink, d, 0)
}

// Decode reads one value into a value of type T.
func Decode[T any](d *Decoder) T {
	var v T
	d.DecodeValue(reflect.ValueOf(&v).Elem())
	return v
}

// DecodeValue reads one value into the settable v.
func (d *Decoder) DecodeValue(v reflect.Value) { d.decode(v, 0) }

// DecodeError reads an error.
func (d *Decoder) DecodeError() error {
	var err error
	d.decode(reflect.ValueOf(&err).Elem(), 0)
	return err
}

func (d *Decoder) decode(v reflect.Value, depth int) {
	if d.peek() == TagAt {
		d.skipAt() // where the reference after it lies (located.go)
	}
	outer := d.ifaceName // for this value only, not for values inside it
	d.ifaceName = ""
	if d.Err != nil {
		return
	}
	if depth > MaxDepth+2 {
		d.fail("values nested too deeply")
		return
	}
	tag := d.peek()
	var impl []string
	if tag == TagImplements {
		d.Off++
		for i, n := 0, d.count(); i < n && d.Err == nil; i++ {
			impl = append(impl, d.name())
		}
		tag = d.peek()
	}
	t := v.Type()
	whereT := d.whereT
	d.whereT = nil // for this value only
	switch tag {
	case TagNil:
		d.Off++
		v.SetZero()
		return
	case TagTruncated:
		d.Off++
		return
	}
	if t.Kind() == reflect.Interface {
		d.decodeIface(v, depth, impl)
		return
	}
	if tag == TagReflectValue && t == reflectValueType {
		d.decodeReflectValue(v, depth)
		return
	}
	switch tag {
	case TagFalse, TagTrue:
		if t.Kind() != reflect.Bool {
			break
		}
		v.SetBool(d.Bool())
		return
	case TagInt:
		switch t.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			v.SetInt(d.Int())
			return
		}
	case TagUint:
		switch t.Kind() {
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			v.SetUint(d.Uint())
			return
		}
	case TagFloat:
		switch t.Kind() {
		case reflect.Float32, reflect.Float64:
			v.SetFloat(d.Float())
			return
		}
	case TagComplex:
		switch t.Kind() {
		case reflect.Complex64, reflect.Complex128:
			d.Off++
			b := d.raw(16)
			if d.Err == nil {
				v.SetComplex(complex(math.Float64frombits(binary.LittleEndian.Uint64(b)), math.Float64frombits(binary.LittleEndian.Uint64(b[8:]))))
			}
			return
		}
	case TagString:
		if t.Kind() == reflect.String {
			v.SetString(d.String())
			return
		}
	case TagRedacted:
		switch {
		case t.Kind() == reflect.String:
			d.Off++
			d.whereT = whereT
			v.SetString(d.standIn())
			return
		case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
			d.Off++
			d.whereT = whereT
			s := d.standIn()
			b := reflect.MakeSlice(t, len(s), len(s))
			copyBytes(b, []byte(s))
			v.Set(b)
			return
		}
	case TagBytes:
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			b := d.Bytes()
			s := reflect.MakeSlice(t, len(b), len(b))
			copyBytes(s, b)
			v.Set(s)
			return
		}
		if t.Kind() == reflect.Array && t.Elem().Kind() == reflect.Uint8 {
			copyBytes(v, d.Bytes())
			return
		}
	case TagView:
		if t.Kind() == reflect.Slice {
			d.decodeView(v, depth)
			return
		}
	case TagList:
		switch t.Kind() {
		case reflect.Slice:
			d.Off++
			n := d.count()
			s := reflect.MakeSlice(t, n, n)
			for i := 0; i < n && d.Err == nil; i++ {
				d.decode(s.Index(i), depth+1)
			}
			v.Set(s)
			return
		case reflect.Array:
			d.Off++
			n := d.count()
			for i := 0; i < n && d.Err == nil; i++ {
				if i < v.Len() {
					d.decode(v.Index(i), depth+1)
				} else {
					d.Skip()
				}
			}
			return
		}
	case TagMap:
		if t.Kind() == reflect.Map {
			d.Off++
			n := d.count()
			m := reflect.MakeMapWithSize(t, n)
			for i := 0; i < n && d.Err == nil; i++ {
				k := reflect.New(t.Key()).Elem()
				d.decode(k, depth+1)
				e := reflect.New(t.Elem()).Elem()
				d.decode(e, depth+1)
				if d.Err == nil {
					m.SetMapIndex(k, e)
				}
			}
			v.Set(m)
			return
		}
	case TagStruct, TagRecord:
		if t.Kind() == reflect.Struct {
			d.Off++
			if tag == TagStruct {
				d.name() // format 1: the type name, which the slot gives
			}
			n := d.count()
			for i := 0; i < n && d.Err == nil; i++ {
				if i < v.NumField() {
					d.whereT, d.whereF = t, t.Field(i).Name
					d.decode(field(v, i), depth+1)
				} else {
					d.Skip()
				}
			}
			return
		}
	case TagExported:
		if t.Kind() == reflect.Struct {
			d.Off++
			d.decodeExported(v, depth)
			return
		}
	case TagTime:
		if t == timeType {
			d.Off++
			sec := d.varint()
			nsec := d.uvarint()
			zone := d.name()
			off := d.varint()
			if d.Err != nil {
				return
			}
			raw := d.byte()
			var wall uint64
			var ext int64
			if raw == 1 {
				wall = d.uvarint()
				ext = d.varint()
			}
			if d.Err != nil {
				return
			}
			loc := time.UTC
			if zone != "UTC" || off != 0 {
				loc = time.FixedZone(zone, int(off))
			}
			t := time.Unix(sec, int64(nsec)).In(loc)
			tv := reflect.New(timeType).Elem()
			tv.Set(reflect.ValueOf(t))
			if raw == 1 {
				if w, x, ok := timeFields(tv); ok {
					w.SetUint(wall)
					x.SetInt(ext)
					if tv.Interface().(time.Time).Unix() != sec {
						tv.Set(reflect.ValueOf(t)) // not this Go's representation
					}
				}
			}
			v.Set(tv)
			return
		}
	case TagRef:
		switch t.Kind() {
		case reflect.Pointer, reflect.Chan, reflect.Func, reflect.UnsafePointer, reflect.Map:
			d.Off++
			name := d.refName(outer)
			id := d.uvarint()
			if d.Err != nil {
				return
			}
			if id == 0 && t.Kind() == reflect.Pointer && t.Elem().Size() == 0 {
				v.Set(reflect.New(t.Elem())) // no identity (NoIdentity)
				return
			}
			r, err := d.Resolver.Ref(id, name, t)
			if err != nil {
				d.Err = err
				return
			}
			v.Set(r)
			return
		}
	case TagObject:
		if t.Kind() == reflect.Pointer {
			d.Off++
			name := d.refName(outer)
			id := d.uvarint()
			if id == 0 && t.Elem().Size() == 0 {
				// No identity (NoIdentity): a zero-size object of its own,
				// bound to nothing.
				obj := reflect.New(t.Elem())
				if d.peek() == TagNil {
					d.Off++
				} else {
					d.decode(obj.Elem(), depth+1)
				}
				v.Set(obj)
				return
			}
			obj, known := d.Resolver.Object(id)
			if d.peek() == TagNil && !(known && pointeeWrittenEveryTime(t)) {
				d.Off++
				if !known {
					// Seen before in capture, unknown to replay: a divergence
					// in how objects were created; give a fresh object.
					obj = d.newObject(id, t, name)
				}
			} else {
				into := obj
				if !known {
					obj = d.newObject(id, t, name)
					into = obj
				} else if !obj.Type().AssignableTo(t) {
					if obj.Kind() == reflect.Pointer && !obj.IsNil() && holdsAtStart(obj.Type().Elem(), t.Elem()) {
						// The contents of the smaller object at the start of
						// the known one (a *big.Int that Rat.Num returns, at
						// the address of its Rat) go into that object.
						into = reflect.NewAt(t.Elem(), obj.UnsafePointer())
					} else if real, ok := d.realize(id, t, name); ok {
						obj, into = real, real // a placeholder's object, now seen as itself
					} else {
						d.objectMismatch(id, obj, t, name)
						return
					}
				}
				d.contents(into.Elem())
				if sr, ok := d.Resolver.(SharedResolver); ok && !known && d.Err == nil {
					sr.Shared(into.Elem())
				}
			}
			if d.Err == nil {
				if !obj.Type().AssignableTo(t) {
					if obj.Kind() != reflect.Pointer || obj.IsNil() || !holdsAtStart(obj.Type().Elem(), t.Elem()) {
						d.objectMismatch(id, obj, t, name)
						return
					}
					// One address seen as two types in the capture: a
					// pointer to the object's first field (&o.inner), or the
					// object as another type of the same underlying type
					// (pflag's *int as an *intValue).
					obj = reflect.NewAt(t.Elem(), obj.UnsafePointer())
				}
				v.Set(obj)
			}
			return
		}
	}
	if d.Err == nil {
		d.fail("cannot decode %s into a %s", tagName(tag), TypeName(t))
	}
}

// maxDecodedNesting bounds the objects with contents a decoder reads nested
// in one another: MaxObjectNesting, then those the encoder writes within
// MaxDepth levels past that, counted over every level.
const maxDecodedNesting = MaxObjectNesting + MaxDepth + 2

// contents reads the pointee of an object. From log format 11 the encoder
// counts MaxDepth within each object's contents; the decoder does for logs
// of every format (the contents of earlier logs never nest deeper than
// MaxDepth anyway), and bounds the objects nested in one another instead.
func (d *Decoder) contents(v reflect.Value) {
	if d.objNest > maxDecodedNesting {
		d.fail("objects nested too deeply")
		return
	}
	d.objNest++
	d.decode(v, 0)
	d.objNest--
}

// decodeIface reads a value whose static type is the interface type of v.
// impl lists the asserted interfaces a stand-in for a value of an unknown
// dynamic type must implement (TagImplements).
func (d *Decoder) decodeIface(v reflect.Value, depth int, impl []string) {
	t := v.Type()
	switch tag := d.peek(); tag {
	case TagReflectType:
		d.decodeReflectType(v)
	case TagSentinel:
		d.Off++
		name := d.name()
		if x, ok := valueSentinelByName(name); ok {
			d.setIface(v, reflect.ValueOf(x))
			return
		}
		err, ok := sentinelByName(name)
		if !ok {
			if !errorType.AssignableTo(t) {
				// A variable of another kind than error that this build
				// does not register (RegisterSentinelValue): no stand-in
				// has its identity.
				d.fail("variable %s (a value recorded by its name) is not registered in this build", name)
				return
			}
			err = &Error{Type: "sentinel", Msg: name}
		}
		d.setIface(v, reflect.ValueOf(err))
	case TagError:
		d.Off++
		e := &Error{Type: d.name(), Msg: d.name()}
		for i, n := 0, d.count(); i < n && d.Err == nil; i++ {
			e.Matches = append(e.Matches, d.name())
		}
		n := d.count()
		for i := 0; i < n && d.Err == nil; i++ {
			e.Wrapped = append(e.Wrapped, d.DecodeError())
		}
		e.Impl = impl
		d.setIface(v, reflect.ValueOf(errorStandIn(e)))
	case TagTypedError:
		d.Off++
		name := d.name()
		rt, ok := LookupType(name)
		if !ok {
			d.fail("error type %s is not registered in this build", name)
			return
		}
		if rt.Kind() == reflect.Pointer {
			d.skipAt()
			if inner := d.peek(); inner == TagObject || inner == TagRef {
				// An error of an observed pointer type, by identity.
				x := reflect.New(rt).Elem()
				d.decode(x, depth+1)
				d.setIface(v, x)
				return
			}
			p := reflect.New(rt.Elem())
			d.decode(p.Elem(), depth+1)
			if TypedErrorPointee != nil {
				TypedErrorPointee(p)
			}
			d.setIface(v, p)
			return
		}
		x := reflect.New(rt).Elem()
		d.decode(x, depth+1)
		d.setIface(v, x)
	case TagIface:
		d.Off++
		name := d.name()
		rt, ok := LookupType(name)
		if !ok && d.Linked {
			rt, ok = LinkedType(name)
		}
		if !ok && strings.HasPrefix(name, "func(") {
			// A func type literal made of types this build names
			// (mapstructure's func(reflect.Value, reflect.Value)
			// (interface {}, error) in a DecodeHookFunc): the value
			// decodes as a function, the closure bound to its ID.
			rt, ok = funcTypeByName(name)
		}
		if ok && rt.Kind() != reflect.Interface {
			x := reflect.New(rt).Elem()
			d.ifaceName = name
			d.decode(x, depth+1)
			d.setIface(v, x)
			return
		}
		// A dynamic type this build does not know: references become
		// placeholders of the interface type, plain values opaque text.
		unbuilt := d.Unbuilt
		if d.Unbuilt == "" {
			d.Unbuilt = name
		}
		d.skipAt() // a stand-in is no part of another object
		innerAt := d.Off
		switch inner := d.peek(); inner {
		case TagRef, TagObject:
			start := d.Off
			d.Off++
			rname := d.refName(name)
			id := d.uvarint()
			if inner == TagObject {
				// An object's contents follow on first sight (TagNil after):
				// a reference has none, and a TagNil after it is the next
				// value's (fs.FS.Open's nil error;
				// TestUnknownRefInInterfaceThenNil).
				d.Skip()
			}
			if d.Err != nil {
				return
			}
			if id == 0 {
				// A pointer with no identity (NoIdentity) is a value: its
				// stand-in is bound to no object and re-encodes as recorded.
				r, err := d.stand(name, d.Buf[start:d.Off], t, impl)
				if err != nil {
					d.linkedOrNoStandIn(err, v, t, name, innerAt, unbuilt, depth)
					return
				}
				v.Set(r)
				return
			}
			if obj, ok := d.Resolver.Object(id); ok && obj.Type().AssignableTo(t) {
				v.Set(obj)
				return
			}
			r, err := d.ref(id, rname, t, impl)
			if err != nil {
				d.linkedOrNoStandIn(err, v, t, name, innerAt, unbuilt, depth)
				return
			}
			v.Set(r)
		default:
			start := d.Off
			d.Skip()
			if d.Err != nil {
				return
			}
			r, err := d.stand(name, d.Buf[start:d.Off], t, impl)
			if err != nil {
				d.linkedOrNoStandIn(err, v, t, name, innerAt, unbuilt, depth)
				return
			}
			v.Set(r)
		}
	default:
		// A concrete value stored in an interface position without TagIface
		// (a nil-able reference): decode as a reference of the interface.
		if tag == TagRef || tag == TagObject {
			d.Off++
			name := d.name()
			id := d.uvarint()
			if tag == TagObject && d.peek() == TagNil {
				d.Off++
			}
			if d.Err != nil {
				return
			}
			r, err := d.ref(id, name, t, impl)
			if err != nil {
				d.Err = err
				return
			}
			v.Set(r)
			return
		}
		d.fail("cannot decode %s into interface %s", tagName(tag), TypeName(t))
	}
}

// noStandIn handles err, the failure to make a stand-in for a value of a
// dynamic type this build does not know (Unbuilt names it). Decoding a
// reflected argument (NilUnbuilt), the slot stays nil and decoding goes on:
// the caller ends the replay with the type named (probe.DecodeReflected),
// a limit of replay rather than a divergence (chi's reflected
// *http.Server holding a *net/http.onceCloseListener, for which no
// stand-in of net.Listener is generated). Elsewhere it is the decoding's
// error. Only a caller that ends on Unbuilt sets NilUnbuilt.
func (d *Decoder) noStandIn(err error) {
	if d.NilUnbuilt && d.Unbuilt != "" {
		return
	}
	d.Err = err
}

// linkedOrNoStandIn handles err, the failure to make a stand-in of
// interface type t for a recorded value of dynamic type name, whose
// encoding starts at innerAt. Stand-ins are generated for the interface
// types of the boundary's signatures; a value recorded deeply reaches
// interface fields of other types: an *http.Request recorded after an
// outcall wrote it holds its Body, an io.ReadCloser whose dynamic type is
// what io.NopCloser returned, the unexported io.nopCloserWriterTo, and no
// stand-in of io.ReadCloser exists. When the binary links the recorded
// type itself (LinkedType) and it implements t, the value is rebuilt as
// that type with its recorded contents (its methods that observed code
// calls are outcalls all the same, answered from the log), and decoding
// goes on; otherwise err is handled as noStandIn does. unbuilt is Unbuilt
// as it was before this value.
func (d *Decoder) linkedOrNoStandIn(err error, v reflect.Value, t reflect.Type, name string, innerAt int, unbuilt string, depth int) {
	if !d.Linked && t.Kind() == reflect.Interface {
		if rt, ok := LinkedType(name); ok && rt.Kind() != reflect.Interface && rt.Implements(t) {
			d.Off, d.Unbuilt = innerAt, unbuilt
			x := reflect.New(rt).Elem()
			d.ifaceName = name
			d.decode(x, depth+1)
			d.setIface(v, x)
			return
		}
	}
	d.noStandIn(err)
}

func (d *Decoder) setIface(v, x reflect.Value) {
	if d.Err != nil {
		return
	}
	if !x.Type().AssignableTo(v.Type()) {
		d.fail("a %s does not implement %s", TypeName(x.Type()), TypeName(v.Type()))
		return
	}
	v.Set(x)
	goBox(v) // gobox.go
}

// Error stands in, during replay, for a recorded error whose dynamic type
// replay cannot rebuild: same message, and the same chain for errors.Is and
// errors.As (registered sentinels and types in the chain are the real ones).
type Error struct {
	Type    string   // dynamic type name in the capture
	Msg     string   // its Error()
	Matches []string // sentinels it matched through its own Is method
	Wrapped []error
	Impl    []string // asserted interfaces it implemented (TagImplements): its stand-in does too
}

func (e *Error) Error() string   { return e.Msg }
func (e *Error) Unwrap() []error { return e.Wrapped }

// Is answers errors.Is as the recorded error's own Is method did.
func (e *Error) Is(target error) bool {
	for _, n := range e.Matches {
		if s, ok := sentinelByName(n); ok && s == target {
			return true
		}
	}
	return false
}

// Opaque stands in, during replay, for a value in an empty interface whose
// dynamic type replay does not know.
type Opaque struct {
	Type string
	Text string
}

func (o Opaque) String() string { return o.Text }

// RefOf returns the type name and object ID of the reference or observed
// object encoded at the start of b (looking through an interface value).
func RefOf(b []byte) (typeName string, id uint64, ok bool) { return RefOfKnown(b, "") }

// RefOfKnown is RefOf for a reference whose type name is probably known:
// when the encoded name is known, known itself is returned (no allocation).
func RefOfKnown(b []byte, known string) (typeName string, id uint64, ok bool) {
	d := &Decoder{Buf: b}
	name := func() string {
		if n := d.raw(d.uvarint()); string(n) != known {
			return string(n)
		}
		return known
	}
	tag := d.byte()
	if tag == TagImplements {
		for i, n := 0, d.count(); i < n && d.Err == nil; i++ {
			d.raw(d.uvarint())
		}
		tag = d.byte()
	}
	for tag == TagAt {
		d.Off--
		d.at()
		tag = d.byte()
	}
	if tag == TagIface {
		typeName = name()
		tag = d.byte()
		for tag == TagAt {
			d.Off--
			d.at()
			tag = d.byte()
		}
	}
	if d.Err == nil && typeName != "" && tag != TagRef && tag != TagObject {
		return typeName, 0, true // a value in an interface: its dynamic type
	}
	if d.Err != nil || (tag != TagRef && tag != TagObject) {
		return "", 0, false
	}
	if n := name(); n != "" || typeName == "" {
		typeName = n
	} // else the interface value's dynamic type name, given once (format 2)
	id = d.uvarint()
	return typeName, id, d.Err == nil
}

// copyBytes copies b into dst, a slice or array of a byte kind: reflect.Copy
// wants identical element types, and a named byte type (type EditType
// uint8) is not uint8.
func copyBytes(dst reflect.Value, b []byte) {
	if dst.Type().Elem() == reflect.TypeFor[byte]() {
		reflect.Copy(dst, reflect.ValueOf(b))
		return
	}
	n := min(dst.Len(), len(b))
	for i := 0; i < n; i++ {
		dst.Index(i).SetUint(uint64(b[i]))
	}
}

// ErrTwoTypesOneAddress is returned (wrapped) when a log names one object
// by two types that replay cannot make one object of: a known limitation,
// not a changed signature.
var ErrTwoTypesOneAddress = errors.New("one object seen as two types at one address")

// ErrFirstFieldFirst is the ErrTwoTypesOneAddress of an object seen first
// as its first field, then as the whole struct, whose type replay could not
// make at the first sight.
var ErrFirstFieldFirst = fmt.Errorf("%w: its first field, then the whole struct", ErrTwoTypesOneAddress)

// A WholeResolver knows the objects that a log names by several types at one
// address, a struct and the types of values it holds at its start (a pointer
// to the first field of a struct crossed the boundary before a pointer to
// the struct, as in go-cmp's teststructs; TestFirstFieldThenWholeStruct).
// Replay makes the whole struct at such an object's first sight and hands
// out a pointer to the part that sight names, so that a later sight of the
// struct is the same object.
type WholeResolver interface {
	// Whole returns the type (a struct type, not a pointer) of the whole
	// object the log's id names, when the log names it by several types.
	Whole(id uint64) (reflect.Type, bool)
}

// A SharedResolver knows values replay holds that an object the log
// introduces with its contents may be a copy of: a struct an incall
// returned by value that holds maps of the observed state
// (probe.KeepResult). Shared makes v, the object's contents just decoded,
// that value if it is one.
type SharedResolver interface {
	Shared(v reflect.Value)
}

// newObject makes and binds the replay object of id, first seen as a t (a
// pointer type) named name: a new t, or a t at the start of a new whole
// object (WholeResolver).
func (d *Decoder) newObject(id uint64, t reflect.Type, name string) reflect.Value {
	if ir, ok := d.Resolver.(InteriorResolver); ok {
		if x, ok := ir.Interior(id, t); ok {
			// A part of another object (located.go).
			d.Resolver.Bind(id, x, name)
			return x
		}
	}
	if wr, ok := d.Resolver.(WholeResolver); ok {
		if w, ok := wr.Whole(id); ok && w != t.Elem() && LeadsWith(w, t.Elem()) {
			whole := reflect.New(w)
			// Bound by its own type's name: the replayed code's encodings
			// name each sight by its own type, as the capture did.
			d.Resolver.Bind(id, whole, TypeName(whole.Type()))
			return reflect.NewAt(t.Elem(), whole.UnsafePointer())
		}
	}
	obj := reflect.New(t.Elem())
	d.Resolver.Bind(id, obj, name)
	return obj
}

// objectMismatch sets the error of an object sight, of type t in the slot
// and named name in the log, that replay's object obj of the same ID cannot
// be.
func (d *Decoder) objectMismatch(id uint64, obj reflect.Value, t reflect.Type, name string) {
	switch {
	case obj.Kind() == reflect.Pointer && !obj.IsNil() && LeadsWith(t.Elem(), obj.Type().Elem()):
		// Replay made the smaller object: it did not know of the whole
		// struct at the first sight (a type it cannot name: a generic
		// instantiation, a type declared in a function), or the object is
		// one that the replayed code made itself.
		d.Err = fmt.Errorf("%w: object %d is first a %s, then a %s at the same address: a pointer to a struct's first field crossed the boundary before a pointer to the struct, and replay, which could not make the struct at the first sight (its type is not registered by name in this build), made the smaller object (docs/limitations.md)",
			ErrFirstFieldFirst, id, obj.Type(), t)
	case name == TypeName(t):
		// The log names the object by both types: the capture saw them at
		// one address, neither at the start of the other.
		d.Err = fmt.Errorf("%w: object %d is first a %s, then a %s at the same address, and neither holds the other at its start: replay cannot make one object of both (docs/limitations.md)",
			ErrTwoTypesOneAddress, id, obj.Type(), t)
	default:
		d.fail("object %d is a %s, not a %s", id, obj.Type(), t)
	}
}

// holdsAtStart reports whether memory holding a value of type outer may be
// seen as a value of type inner at the same address: inner is at outer's
// start (LeadsWith), or has outer's underlying type (a named type and its
// underlying type: pflag's *int as an *intValue). Other types are not one
// object: seeing one as the other would reinterpret its memory (and pointers
// in it, which the garbage collector must find where their type says).
func holdsAtStart(outer, inner reflect.Type) bool {
	return outer == inner || LeadsWith(outer, inner) ||
		outer.Kind() == inner.Kind() && outer.Size() == inner.Size() && outer.ConvertibleTo(inner) && inner.ConvertibleTo(outer)
}

// LeadsWith reports whether a value of type outer holds a value of type
// inner at its start, offset 0, at any depth (its first field, that field's
// first field, the first element of an array there, a field after
// zero-size fields), outer itself not counted.
func LeadsWith(outer, inner reflect.Type) bool {
	switch outer.Kind() {
	case reflect.Struct:
		for i := range outer.NumField() {
			f := outer.Field(i)
			if f.Offset != 0 {
				break
			}
			if f.Type == inner || LeadsWith(f.Type, inner) {
				return true
			}
		}
	case reflect.Array:
		if outer.Len() > 0 {
			return outer.Elem() == inner || LeadsWith(outer.Elem(), inner)
		}
	}
	return false
}
