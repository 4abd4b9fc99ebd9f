package value

import (
	"bytes"
	"encoding/binary"
	"errors"
	"reflect"
	"runtime"
	"slices"
	"sync"
	"time"
	"unsafe"
)

// Objects gives object IDs to references. The recorder backs it with a
// table keyed by weak pointers; the player with its bindings of log IDs to
// replay objects and placeholders.
type Objects interface {
	// ID returns the object ID of the object v refers to (a non-nil pointer, chan, func) whose type is
	// named name, whether this is the first time the object is seen, and the
	// type name to record: name itself, or for a replay placeholder the type
	// name the log gave it. weak is false for pointers that are not heap
	// objects of their own (function code pointers).
	ID(v reflect.Value, name string, weak bool) (id uint64, first bool, recorded string)
	// Recorded returns the type name a replay placeholder at p stands in
	// for, and for a placeholder of a value recorded by value (a struct in
	// an interface) the value's recorded encoding; false for anything else.
	Recorded(p unsafe.Pointer) (name string, raw []byte, ok bool)
}

// An Encoder appends encoded values to Buf.
type Encoder struct {
	Buf     []byte
	Objects Objects
	// Deep encodes every pointer like a pointer to an observed type:
	// (type, ID) and the pointee on first sight. Out-parameters use it for
	// memory the callee allocated and the observed code reads through
	// (json.Unmarshal filling a *int field), which replay must rebuild.
	Deep bool
	// Refresh (with Deep) writes the pointee of an object of a type
	// outside the observed set again at every sight, not only at the first
	// (once per encoding: rewritten holds the objects written since
	// ResetRefresh). Values observed code reflects over use it: native
	// reflection reads the object's state as it is at that moment, which
	// external code may have changed since the object last crossed, so
	// replay must rebuild that state (docs/design/reflection.md).
	Refresh   bool
	rewritten map[unsafe.Pointer]bool
	// Outgoing: the values leave the observed set (an incall's results, an
	// outcall's receiver and arguments, a panic or a write leaving it). An
	// observed object of struct type seen for the first time is then
	// written with its exported fields only (TagExported): its unexported
	// state is the set's own, which goroutines of the set may be writing
	// under locks the capture does not hold
	// (TestObjectLeavingNotReadWhileItsGoroutineWrites).
	Outgoing bool
	// Unmarked: the encoding is no event's (a checkpoint's state), which
	// replay of the whole log does not encode or decode, so it calls no
	// hook that marks memory as the code's own (TypedErrorPointee): the
	// marks must be made at the same events in capture and replay.
	Unmarked bool

	// calling counts the value's own methods the encoder is running
	// (errorParts).
	calling int

	// objNest counts the objects whose contents are being written, nested
	// in one another (contentsDepth).
	objNest int

	// ifaceName is the dynamic type name just written for an interface
	// value holding a reference: the reference written next leaves its
	// own name, the same, empty (format 2).
	ifaceName string

	zones [2]zoneCache // appendTime's last zone lookups, the latest first
}

var (
	errorType = reflect.TypeFor[error]()
	timeType  = reflect.TypeFor[time.Time]()
)

// Encode appends v, whose static type is T (so an interface type is encoded
// as an interface: nil or its dynamic value with the dynamic type's name).
func Encode[T any](e *Encoder, v T) {
	// The plan first, then its kind: in place (caches cold between two
	// events) every line read is a miss, and the plan answers what the
	// type descriptor would. The code here is repeated for every type
	// shape the probes encode, each a cold miss of its own, so it is
	// kept to the part that needs T.
	var zero T
	if any(zero) == nil { // T is an interface type (a constant per shape)
		// Its dynamic value; the static type only matters for the
		// implements prefix, which no program without asserted
		// interfaces writes: for a nil error result, for instance, no
		// lookup at all.
		x := any(v)
		if x == nil {
			e.Buf = append(e.Buf, TagNil)
			return
		}
		var static reflect.Type
		if asserted.any.Load() {
			static = reflect.TypeFor[T]()
		}
		e.encodeIface(static, reflect.ValueOf(x), x, 0)
		return
	}
	pl := planFor(reflect.TypeFor[T]())
	if pl.boxed {
		// Values of pointer shape and interfaces are encoded from a copy
		// in an interface, which costs no allocation.
		e.encodeBoxed(pl, any(v))
		return
	}
	// Encoded from v's own memory (plans read values through their
	// addresses): &v would move v to the heap on every call, since escape
	// analysis cannot see that no encoder keeps the pointer it is given
	// (none does: they keep only the values they read, and reflect.Values
	// of them, never of the memory itself). A copy into heap scratch
	// memory instead costs misses on lines of its own in place.
	e.at(pl, noescape(unsafe.Pointer(&v)), 0)
	runtime.KeepAlive(&v)
}

// encodeBoxed encodes x, a value of pl's type (an interface type: its
// dynamic value, nil for a nil interface value; a type of pointer shape:
// the value itself).
func (e *Encoder) encodeBoxed(pl *encPlan, x any) {
	switch pl.kind {
	case reflect.Interface:
		if x == nil {
			e.Buf = append(e.Buf, TagNil)
			return
		}
		e.encodeIface(pl.t, reflect.ValueOf(x), x, 0)
	case reflect.Pointer:
		ptr := ifaceData(x) // the pointer itself
		if ptr == nil {
			e.Buf = append(e.Buf, TagNil)
			return
		}
		e.pointer(pl, reflect.ValueOf(x), ptr, 0)
	default:
		e.encode(reflect.ValueOf(x), 0)
	}
}

// EncodeRecv is Encode for a method's receiver, and returns the name of
// v's dynamic type (TypeName of T, or of the type an interface value
// holds): from the plans the encoding just used, where a TypeName lookup
// of its own would be a miss in place.
func EncodeRecv[T any](e *Encoder, v T) (typeName string) {
	Encode(e, v)
	var zero T
	if any(zero) == nil { // T is an interface type
		if x := any(v); x != nil {
			return planFor(reflect.TypeOf(x)).name
		}
		return TypeName(reflect.TypeFor[T]())
	}
	return planFor(reflect.TypeFor[T]()).name
}

// noescape hides p from escape analysis, as the runtime's own noescape
// does: the result is p itself. Safe while p's memory stays live and
// nothing keeps the result beyond the call using it: the stack is moved
// only at calls, and a pointer into it on the stack is moved with it.
func noescape(p unsafe.Pointer) unsafe.Pointer {
	u := uintptr(p)
	return *(*unsafe.Pointer)(unsafe.Pointer(&u))
}

// EncodeValue appends rv, using rv's type as the static type.
func (e *Encoder) EncodeValue(rv reflect.Value) { e.encode(rv, 0) }

// EncodeError appends an error: nil, a registered sentinel by name, a value
// of a registered type, or its message and dynamic type with the errors it
// wraps (so errors.Is and errors.As answer the same in replay).
func (e *Encoder) EncodeError(err error) { e.encodeError(err, 0) }

func (e *Encoder) encodeError(err error, depth int) {
	if err == nil {
		e.Buf = append(e.Buf, TagNil)
		return
	}
	if depth > MaxDepth {
		e.Buf = append(e.Buf, TagTruncated)
		return
	}
	t := reflect.TypeOf(err)
	pl := planFor(t)
	if pl.sentinelType() {
		if name, ok := sentinelName(err); ok {
			e.Buf = append(e.Buf, TagSentinel)
			e.Buf = appendName(e.Buf, name)
			return
		}
	}
	if rec, ok := err.(errorStandInType); ok {
		// A recorded error replayed (or a stand-in wrapping one): encode it
		// as it was recorded.
		re := rec.recorded()
		e.appendImplNames(re.Impl)
		e.Buf = append(e.Buf, TagError)
		e.Buf = appendName(e.Buf, re.Type)
		e.Buf = appendName(e.Buf, re.Msg)
		e.Buf = binary.AppendUvarint(e.Buf, uint64(len(re.Matches)))
		for _, n := range re.Matches {
			e.Buf = appendName(e.Buf, n)
		}
		e.Buf = binary.AppendUvarint(e.Buf, uint64(len(re.Wrapped)))
		for _, w := range re.Wrapped {
			e.encodeError(w, depth+1)
		}
		return
	}
	name := pl.name
	if pl.typedError() {
		e.Buf = append(e.Buf, TagTypedError)
		e.Buf = appendName(e.Buf, name)
		rv := reflect.ValueOf(err)
		if t.Kind() == reflect.Pointer {
			if rv.IsNil() {
				e.Buf = append(e.Buf, TagNil)
				return
			}
			if pl.observedElem() {
				// An error the observed set allocates is compared by
				// identity (errors.Is's ==, a sentinel kept in a
				// variable): the pointer itself, an object like any
				// other pointer to an observed type, so that replay
				// hands back the one object the code made.
				e.pointer(pl, rv, rv.UnsafePointer(), depth+1)
				return
			}
			if TypedErrorPointee != nil && !e.Unmarked {
				TypedErrorPointee(rv)
			}
			rv = rv.Elem()
		}
		e.encode(rv, depth+1)
		return
	}
	e.appendImplNames(Implements(errorType, t))
	e.Buf = append(e.Buf, TagError)
	e.Buf = appendName(e.Buf, name)
	msg, is, wrapped := e.errorParts(err)
	e.Buf = appendName(e.Buf, msg)
	e.Buf = binary.AppendUvarint(e.Buf, uint64(len(is)))
	for _, n := range is {
		e.Buf = appendName(e.Buf, n)
	}
	e.Buf = binary.AppendUvarint(e.Buf, uint64(len(wrapped)))
	for _, w := range wrapped {
		e.encodeError(w, depth+1)
	}
}

// errorParts calls err's own methods for what its encoding holds: its
// message, the sentinels it claims to be through its own Is method (e.g.
// syscall.ENOENT is fs.ErrNotExist: replay's stand-in says the same) and
// the errors it wraps. While they run, CallingMethods is true: an error of
// an observed type runs observed code here, which the probes must not
// record as boundary events in the middle of the event being encoded
// (TestErrorMethodsCalledByTheEncoderAreNotEvents).
func (e *Encoder) errorParts(err error) (msg string, is []string, wrapped []error) {
	e.calling++
	defer func() { e.calling-- }()
	msg = safeMessage(err)
	is = sentinelsMatchedBy(err)
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		if w := u.Unwrap(); w != nil {
			wrapped = []error{w}
		}
	case interface{ Unwrap() []error }:
		wrapped = u.Unwrap()
	}
	return msg, is, wrapped
}

// CallingMethods reports whether the encoder is running a value's own
// methods (an error's Error, Is or Unwrap) for its encoding.
func (e *Encoder) CallingMethods() bool { return e.calling != 0 }

// safeMessage is err.Error(), or a description of the panic it raised (a
// typed nil pointer error, for instance): recording must not crash the
// program it observes.
func safeMessage(err error) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = "<Error() panicked>"
		}
	}()
	return err.Error()
}

// LastPlainCollectionErrorFormat is the last log format version that
// writes an error whose type is a slice, array, map, bool or float (a
// multi-error such as `type Errors []error`) as its message and type name
// alone (TagError), not by value; a player of such a log encodes them so
// too (SetPlainCollectionErrors), so that its values compare equal.
const LastPlainCollectionErrorFormat = 9

// plainCollectionErrors: errors of those kinds are written as TagError, as
// logs of LastPlainCollectionErrorFormat and before hold them. Set by
// replay of such a log before any stream runs.
var plainCollectionErrors bool

// SetPlainCollectionErrors makes the encoders write errors of a slice,
// array, map, bool or float type as their message (plain true) or by value
// where the type is registered (false, the default).
func SetPlainCollectionErrors(plain bool) {
	if plain != plainCollectionErrors {
		plainCollectionErrors = plain
		prefixGen.Add(1) // typedError's cached answers no longer hold
	}
}

// rebuildable: replay can construct a value of t from its encoding. An
// error type that is a slice or a map of errors (govalidator's
// `type Errors []error`, a multi-error) is one too: observed code
// type-switches on its own error types (`case Errors:`) and ranges over
// their elements, which a stand-in with the message alone cannot answer.
func rebuildable(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct, reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	case reflect.Slice, reflect.Array, reflect.Map, reflect.Bool, reflect.Float32, reflect.Float64:
		return !plainCollectionErrors
	}
	return false
}

func (e *Encoder) ref(tag byte, v reflect.Value, weak bool) (first bool) {
	return e.refNamed(tag, v, TypeName(v.Type()), weak)
}

// zeroBase is the address Go gives every zero-size allocation and every
// zero-size package variable (runtime.zerobase; reflect.New of a zero-size
// type returns it).
var zeroBase = reflect.New(reflect.TypeFor[struct{}]()).UnsafePointer()

// NoIdentity reports whether v is a pointer that names no object: one to
// zero-size memory at the address that every zero-size allocation and
// variable shares (&listParser{}, &Options{}, new(struct{})). Distinct
// objects have that one address, and the language lets code rely neither
// on their pointers being equal nor on their being different, so the
// address says nothing a program may use and nothing replay should match.
// Such a pointer is written with object ID 0 and no contents (it has none),
// and replay gives each a zero-size object of its own, bound to nothing.
// A zero-size pointee elsewhere (a field inside a larger object, an opaque
// handle such as *runtime.Func) keeps its identity by address.
func NoIdentity(v reflect.Value) bool {
	return v.Kind() == reflect.Pointer && v.UnsafePointer() == zeroBase
}

// noIdentityRef reports whether raw, the recorded encoding of a stand-in,
// is a pointer with no identity (NoIdentity: object ID 0, no contents),
// TagRef or TagObject, and returns its name as written (empty inside an
// interface value, which names the type).
//
// Such a stand-in re-encodes as the capture wrote the pointer, yet the
// capture writes one pointer two ways: a reference where the encoding is
// plain, an object (with no contents) where it is Deep (an out-parameter's
// pointee recorded after an outcall, a reflected value). A stand-in decoded
// from one sight and encoded at another (goldmark's delimiter holding its
// extension's zero-size processor, rebuilt from the out-parameter record of
// one outcall, then the receiver of the next) must follow the encoding it
// is written in, as the capture's pointer did.
func noIdentityRef(raw []byte) (name []byte, ok bool) {
	if len(raw) == 0 || (raw[0] != TagRef && raw[0] != TagObject) {
		return nil, false
	}
	n, k := binary.Uvarint(raw[1:])
	if k <= 0 || uint64(len(raw)-1-k) < n {
		return nil, false
	}
	rest := raw[1+k+int(n):]
	want := []byte{0} // object ID 0
	if raw[0] == TagObject {
		want = []byte{0, TagNil} // and no contents
	}
	if !bytes.Equal(rest, want) {
		return nil, false
	}
	return raw[1+k : 1+k+int(n)], true
}

// appendNoIdentity writes a pointer with no identity whose type is named
// name, as pointer does for one: an object without contents if the
// encoding is Deep, else a reference.
func (e *Encoder) appendNoIdentity(name []byte) {
	tag := byte(TagRef)
	if e.Deep {
		tag = TagObject
	}
	e.Buf = append(e.Buf, tag)
	e.Buf = binary.AppendUvarint(e.Buf, uint64(len(name)))
	e.Buf = append(e.Buf, name...)
	e.Buf = append(e.Buf, 0)
	if tag == TagObject {
		e.Buf = append(e.Buf, TagNil)
	}
}

// ResetRefresh forgets which objects a Refresh encoding wrote: the next
// value starts afresh.
func (e *Encoder) ResetRefresh() { e.rewritten = nil }

// refreshed reports, for a Refresh encoding, whether the pointee at ptr of
// an object seen before is written again (the first time in this
// encoding), and notes it.
func (e *Encoder) refreshed(ptr unsafe.Pointer) bool {
	if !e.Refresh || e.rewritten[ptr] {
		return false
	}
	if e.rewritten == nil {
		e.rewritten = map[unsafe.Pointer]bool{}
	}
	e.rewritten[ptr] = true
	return true
}

// refNamed writes a reference to the object v refers to, whose type is
// named name.
func (e *Encoder) refNamed(tag byte, v reflect.Value, name string, weak bool) (first bool) {
	var id uint64
	if e.Objects != nil && !NoIdentity(v) {
		id, first, name = e.Objects.ID(v, name, weak)
		if first {
			if l, ok := e.Objects.(Locator); ok {
				for _, at := range l.Located(id, v) {
					e.Buf = appendAt(e.Buf, at) // located.go
				}
			}
		}
	}
	e.Buf = append(e.Buf, tag)
	if e.ifaceName != "" {
		if name == e.ifaceName {
			name = "" // the interface value's dynamic type name, just written
		}
		e.ifaceName = ""
	}
	e.Buf = appendName(e.Buf, name)
	e.Buf = binary.AppendUvarint(e.Buf, id)
	return first
}

// encode appends v, nested depth deep. Addressable values (and the
// elements of slices) are encoded by their type's plan (plan.go); the
// others, values taken out of interfaces and maps, are encoded here, or
// copied to addressable memory first where that is cheaper than
// reflection (structs, arrays).
func (e *Encoder) encode(v reflect.Value, depth int) {
	if depth > MaxDepth {
		e.Buf = append(e.Buf, TagTruncated)
		return
	}
	if v.CanAddr() {
		pl := planFor(v.Type())
		pl.enc(e, pl, unsafe.Pointer(v.UnsafeAddr()), depth)
		return
	}
	switch k := v.Kind(); k {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		if k == reflect.String && v.CanInterface() {
			if pl := planFor(v.Type()); pl.redact != "" {
				e.Secret(v.String(), pl.redact)
				return
			}
		}
		e.scalar(v, scalarEncoders[k])
	case reflect.Slice:
		if v.IsNil() {
			e.Buf = append(e.Buf, TagNil)
			return
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			if pl := planFor(v.Type()); pl.redact != "" {
				e.SecretBytes(v.Bytes(), pl.redact)
			} else {
				e.bytesView(v.Bytes(), v.Type().Elem())
			}
			return
		}
		// The elements of a slice are addressable through its data pointer.
		e.view(v.UnsafePointer(), v.Cap(), v.Type().Elem())
		e.elements(planFor(v.Type()), v.UnsafePointer(), v.Len(), depth)
	case reflect.Array, reflect.Struct:
		// Copied into one of the plan's scratch values (cleared after use,
		// so that it keeps nothing alive) and encoded from there.
		pl := planFor(v.Type())
		p := pl.getScratch()
		c := reflect.NewAt(pl.t, p).Elem()
		c.Set(v)
		pl.enc(e, pl, p, depth)
		c.SetZero()
		pl.putScratch(p)
	case reflect.Map:
		if v.IsNil() {
			e.Buf = append(e.Buf, TagNil)
			return
		}
		e.encodeMap(v, depth)
	case reflect.Pointer:
		if v.IsNil() {
			e.Buf = append(e.Buf, TagNil)
			return
		}
		e.pointer(planFor(v.Type()), v, v.UnsafePointer(), depth)
	case reflect.Chan, reflect.UnsafePointer:
		if v.IsNil() {
			e.Buf = append(e.Buf, TagNil)
			return
		}
		e.ref(TagRef, v, true)
	case reflect.Func:
		if v.IsNil() {
			e.Buf = append(e.Buf, TagNil)
			return
		}
		e.ref(TagRef, v, false)
	case reflect.Interface:
		if v.IsNil() {
			e.Buf = append(e.Buf, TagNil)
			return
		}
		e.encodeIface(v.Type(), v.Elem(), nil, depth)
	default:
		e.Buf = append(e.Buf, TagOpaque)
		e.Buf = appendName(e.Buf, TypeName(v.Type()))
		e.Buf = appendName(e.Buf, v.Kind().String())
	}
}

// scalar encodes the non-addressable scalar v with its kind's encoder, the
// one its type's plan has (enc), from v's own memory.
func (e *Encoder) scalar(v reflect.Value, enc planEncoder) {
	if !v.CanInterface() {
		// A read-only value (reflect's view of an unexported field) has no
		// interface; the plans read such fields through their addresses,
		// so none reaches here from this package's callers.
		e.Buf = append(e.Buf, TagOpaque)
		e.Buf = appendName(e.Buf, TypeName(v.Type()))
		e.Buf = appendName(e.Buf, "read-only "+v.Kind().String())
		return
	}
	enc(e, nil, ifaceData(v.Interface()), 0)
}

// ifaceData returns the address of the value x holds, for a value of a
// scalar type: an interface holds a value of a type that is not
// pointer-shaped (every scalar type) by a pointer to it, its second word,
// and v.Interface() of a non-addressable v hands over v's own memory.
func ifaceData(x any) unsafe.Pointer {
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&x))[1]
}

// encodeIface encodes el, the dynamic value of a non-nil interface value
// of type static (nil from Encode[T] if no asserted interface was
// registered when the encoding began: then no implements prefix is
// written); x is el as an interface if the caller has it. What it
// needs of the dynamic type (its name, whether it is an error, the
// implements prefix) comes from the type's plan: in place each separate
// lookup is a cache miss.
func (e *Encoder) encodeIface(static reflect.Type, el reflect.Value, x any, depth int) {
	if el.Type() == reflectTypeImpl {
		e.appendReflectType(el.Interface().(reflect.Type))
		return
	}
	dpl := planFor(el.Type())
	// Errors are recorded as errors whatever the static type (a recovered
	// panic value, an any argument): replay rebuilds them the same way.
	if x == nil && el.CanInterface() {
		x = el.Interface()
	}
	if x != nil {
		if dpl.isError {
			e.encodeError(x.(error), depth)
			return
		}
		// A registered variable's value of a type replay cannot name
		// (http.NoBody in a request's Body): by the variable's name.
		if dpl.sentinelType() {
			if name, ok := valueSentinelName(x); ok {
				e.Buf = append(e.Buf, TagSentinel)
				e.Buf = appendName(e.Buf, name)
				return
			}
		}
	}
	name := dpl.name
	if e.Objects != nil {
		switch el.Kind() {
		case reflect.Pointer, reflect.Map, reflect.Chan, reflect.Func:
			if !el.IsNil() {
				if r, raw, ok := e.Objects.Recorded(ifacePointer(el, x)); ok {
					name = r
					if raw != nil {
						if static != nil {
							e.appendImplements(static, el.Type(), name)
						}
						e.Buf = append(e.Buf, TagIface)
						e.Buf = appendName(e.Buf, name)
						if ref, ok := noIdentityRef(raw); ok {
							// A pointer with no identity: written as this
							// encoding writes one (plain or Deep), whichever
							// the sight it was decoded from.
							e.appendNoIdentity(ref)
							return
						}
						e.Buf = append(e.Buf, raw...)
						return
					}
				}
			}
		}
	}
	switch {
	case static == nil:
	case name == dpl.name:
		e.appendImplementsOf(static, dpl)
	default:
		e.appendImplements(static, el.Type(), name)
	}
	e.Buf = append(e.Buf, TagIface)
	e.Buf = appendName(e.Buf, name)
	switch el.Kind() {
	case reflect.Pointer:
		// A reference (or nil) whose type name would repeat the
		// interface value's.
		switch {
		case depth+1 > MaxDepth:
			e.Buf = append(e.Buf, TagTruncated)
		case el.IsNil():
			e.Buf = append(e.Buf, TagNil)
		default:
			ptr := ifacePointer(el, x)
			e.ifaceName = name
			e.pointer(dpl, el, ptr, depth+1)
			e.ifaceName = ""
		}
	case reflect.Chan, reflect.Func, reflect.UnsafePointer:
		e.ifaceName = name
		e.encode(el, depth+1)
		e.ifaceName = ""
	default:
		if enc := scalarEncoder(el.Kind()); enc != nil && x != nil && depth+1 <= MaxDepth {
			if dpl.redact != "" {
				enc = dpl.enc // a secret type
			}
			enc(e, dpl, ifaceData(x), depth+1) // as Encoder.scalar, from x already made
			return
		}
		e.encode(el, depth+1)
	}
}

// ifacePointer is el.UnsafePointer() of a non-nil el taken out of the
// interface x (nil if the caller has none): for a pointer, x's data word,
// without reading the type's descriptor as reflect does.
func ifacePointer(el reflect.Value, x any) unsafe.Pointer {
	if x != nil && el.Kind() == reflect.Pointer {
		return ifaceData(x)
	}
	return el.UnsafePointer()
}

// encodeMap writes the entries of the non-nil map v sorted by their keys'
// encodings. The values are encoded in that order too, after all keys:
// encoding numbers the objects and arrays it sees first (a slice inside a
// value is a view of a newly numbered array), so numbering them in the
// map's iteration order would give replay, iterating in another order,
// other IDs for the same values. Each key is copied into a scratch value
// of its type's plan (SetIterKey: no allocation per entry, as MapIter.Key
// would make for keys stored indirectly), each value into one slice of
// them, and encoded from there.
func (e *Encoder) encodeMap(v reflect.Value, depth int) {
	type entry struct {
		k []byte
		i int // index in vals
	}
	n := v.Len()
	entries := make([]entry, 0, n)
	if e.Refresh && e.rewritten == nil {
		e.rewritten = map[unsafe.Pointer]bool{} // shared with sub
	}
	sub := Encoder{Objects: e.Objects, Deep: e.Deep, Outgoing: e.Outgoing, Refresh: e.Refresh, rewritten: e.rewritten, Unmarked: e.Unmarked, objNest: e.objNest}
	kpl, vpl := planFor(v.Type().Key()), planFor(v.Type().Elem())
	ks := kpl.getScratch()
	k := reflect.NewAt(kpl.t, ks).Elem()
	vals := reflect.MakeSlice(reflect.SliceOf(vpl.t), n, n)
	it := v.MapRange()
	for it.Next() {
		if len(entries) == vals.Len() {
			vals = reflect.Append(vals, reflect.Zero(vpl.t))
		}
		k.SetIterKey(it)
		vals.Index(len(entries)).SetIterValue(it)
		sub.Buf = nil
		sub.at(kpl, k.Addr().UnsafePointer(), depth+1)
		entries = append(entries, entry{sub.Buf, len(entries)})
	}
	k.SetZero()
	kpl.putScratch(ks)
	slices.SortFunc(entries, func(a, b entry) int { return bytes.Compare(a.k, b.k) })
	e.Buf = append(e.Buf, TagMap)
	e.Buf = binary.AppendUvarint(e.Buf, uint64(len(entries)))
	for _, en := range entries {
		e.Buf = append(e.Buf, en.k...)
		sub.Buf = nil
		sub.at(vpl, vals.Index(en.i).Addr().UnsafePointer(), depth+1)
		e.Buf = append(e.Buf, sub.Buf...)
	}
}

// timeFields returns time.Time's wall and ext fields of the addressable v,
// if this Go version still has them.
func timeFields(v reflect.Value) (wall, ext reflect.Value, ok bool) {
	idx := timeFieldIndex()
	if idx == nil {
		return reflect.Value{}, reflect.Value{}, false
	}
	return field(v, idx[0]), field(v, idx[1]), true
}

// timeFieldIndex: the indices of time.Time's wall and ext fields, looked up
// once (FieldByName costs more than the rest of encoding a time).
var timeFieldIndex = sync.OnceValue(func() *[2]int {
	w, okw := timeType.FieldByName("wall")
	x, okx := timeType.FieldByName("ext")
	if !okw || !okx || w.Type.Kind() != reflect.Uint64 || x.Type.Kind() != reflect.Int64 {
		return nil
	}
	return &[2]int{w.Index[0], x.Index[0]}
})

// field returns the i-th field of the addressable struct v, readable and
// settable even when unexported: struct values cross the boundary whole.
func field(v reflect.Value, i int) reflect.Value {
	f := v.Field(i)
	if f.CanSet() {
		return f
	}
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

// ErrCorrupt is returned (wrapped) for values that cannot be decoded.
var ErrCorrupt = errors.New("corrupt encoded value")
