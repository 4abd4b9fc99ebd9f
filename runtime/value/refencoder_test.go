package value

// The encoder as it was before per-type plans (runtime/value/encode.go at
// main ea2853f, value format 1), kept as the reference the plans must
// reproduce byte for byte (TestPlansMatchReflectionEncoder).

import (
	"bytes"
	"encoding/binary"
	"math"
	"reflect"
	"slices"
	"time"
	"unsafe"
)

type refEncoder struct {
	Buf     []byte
	Objects Objects
	Deep    bool
}

func (e *refEncoder) encodeError(err error, depth int) {
	if err == nil {
		e.Buf = append(e.Buf, TagNil)
		return
	}
	if depth > MaxDepth {
		e.Buf = append(e.Buf, TagTruncated)
		return
	}
	if name, ok := sentinelName(err); ok {
		e.Buf = append(e.Buf, TagSentinel)
		e.Buf = appendName(e.Buf, name)
		return
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
	t := reflect.TypeOf(err)
	name := TypeName(t)
	if rt, ok := LookupType(name); ok && rt == t && rebuildable(t) {
		e.Buf = append(e.Buf, TagTypedError)
		e.Buf = appendName(e.Buf, name)
		rv := reflect.ValueOf(err)
		if t.Kind() == reflect.Pointer {
			if rv.IsNil() {
				e.Buf = append(e.Buf, TagNil)
				return
			}
			rv = rv.Elem()
		}
		e.encode(rv, depth+1)
		return
	}
	e.appendImplNames(Implements(errorType, t))
	e.Buf = append(e.Buf, TagError)
	e.Buf = appendName(e.Buf, name)
	e.Buf = appendName(e.Buf, safeMessage(err))
	// Sentinels the error claims to be through its own Is method (e.g.
	// syscall.ENOENT is fs.ErrNotExist): replay's stand-in says the same.
	is := sentinelsMatchedBy(err)
	e.Buf = binary.AppendUvarint(e.Buf, uint64(len(is)))
	for _, n := range is {
		e.Buf = appendName(e.Buf, n)
	}
	var wrapped []error
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		if w := u.Unwrap(); w != nil {
			wrapped = []error{w}
		}
	case interface{ Unwrap() []error }:
		wrapped = u.Unwrap()
	}
	e.Buf = binary.AppendUvarint(e.Buf, uint64(len(wrapped)))
	for _, w := range wrapped {
		e.encodeError(w, depth+1)
	}
}

func (e *refEncoder) ref(tag byte, v reflect.Value, weak bool) (first bool) {
	name := TypeName(v.Type())
	var id uint64
	if e.Objects != nil {
		id, first, name = e.Objects.ID(v, name, weak)
	}
	e.Buf = append(e.Buf, tag)
	e.Buf = appendName(e.Buf, name)
	e.Buf = binary.AppendUvarint(e.Buf, id)
	return first
}

func (e *refEncoder) encode(v reflect.Value, depth int) {
	if depth > MaxDepth {
		e.Buf = append(e.Buf, TagTruncated)
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		e.Buf = AppendBool(e.Buf, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.Buf = AppendInt(e.Buf, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.Buf = AppendUint(e.Buf, v.Uint())
	case reflect.Float32, reflect.Float64:
		e.Buf = AppendFloat(e.Buf, v.Float())
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		e.Buf = append(e.Buf, TagComplex)
		e.Buf = binary.LittleEndian.AppendUint64(e.Buf, math.Float64bits(real(c)))
		e.Buf = binary.LittleEndian.AppendUint64(e.Buf, math.Float64bits(imag(c)))
	case reflect.String:
		e.Buf = AppendString(e.Buf, v.String())
	case reflect.Slice:
		if v.IsNil() {
			e.Buf = append(e.Buf, TagNil)
			return
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			e.Buf = append(e.Buf, TagBytes)
			e.Buf = binary.AppendUvarint(e.Buf, uint64(v.Len()))
			for i := 0; i < v.Len(); i++ {
				e.Buf = append(e.Buf, byte(v.Index(i).Uint()))
			}
			return
		}
		e.list(v, depth)
	case reflect.Array:
		e.list(v, depth)
	case reflect.Map:
		if v.IsNil() {
			e.Buf = append(e.Buf, TagNil)
			return
		}
		e.encodeMap(v, depth)
	case reflect.Struct:
		if v.Type() == timeType {
			e.encodeTime(v)
			return
		}
		v = refReadable(v)
		e.Buf = append(e.Buf, TagStruct)
		e.Buf = appendName(e.Buf, TypeName(v.Type()))
		e.Buf = binary.AppendUvarint(e.Buf, uint64(v.NumField()))
		for i := 0; i < v.NumField(); i++ {
			e.encode(field(v, i), depth+1)
		}
	case reflect.Pointer:
		if v.IsNil() {
			e.Buf = append(e.Buf, TagNil)
			return
		}
		if e.Deep || IsObservedType(v.Type().Elem()) {
			if e.ref(TagObject, v, true) {
				e.encode(v.Elem(), depth+1)
			} else {
				e.Buf = append(e.Buf, TagNil)
			}
			return
		}
		e.ref(TagRef, v, true)
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
		e.encodeIface(v.Type(), v.Elem(), depth)
	default:
		e.Buf = append(e.Buf, TagOpaque)
		e.Buf = appendName(e.Buf, TypeName(v.Type()))
		e.Buf = appendName(e.Buf, v.Kind().String())
	}
}

func (e *refEncoder) encodeIface(static reflect.Type, el reflect.Value, depth int) {
	// Errors are recorded as errors whatever the static type (a recovered
	// panic value, an any argument): replay rebuilds them the same way.
	if el.CanInterface() {
		if err, ok := el.Interface().(error); ok {
			e.encodeError(err, depth)
			return
		}
	}
	name := TypeName(el.Type())
	if e.Objects != nil {
		switch el.Kind() {
		case reflect.Pointer, reflect.Map, reflect.Chan, reflect.Func:
			if !el.IsNil() {
				if r, raw, ok := e.Objects.Recorded(el.UnsafePointer()); ok {
					name = r
					if raw != nil {
						e.appendImplements(static, el.Type(), name)
						e.Buf = append(e.Buf, TagIface)
						e.Buf = appendName(e.Buf, name)
						e.Buf = append(e.Buf, raw...)
						return
					}
				}
			}
		}
	}
	e.appendImplements(static, el.Type(), name)
	e.Buf = append(e.Buf, TagIface)
	e.Buf = appendName(e.Buf, name)
	e.encode(el, depth+1)
}

func (e *refEncoder) list(v reflect.Value, depth int) {
	e.Buf = append(e.Buf, TagList)
	e.Buf = binary.AppendUvarint(e.Buf, uint64(v.Len()))
	for i := 0; i < v.Len(); i++ {
		e.encode(v.Index(i), depth+1)
	}
}

func (e *refEncoder) encodeMap(v reflect.Value, depth int) {
	type entry struct{ k, v []byte }
	entries := make([]entry, 0, v.Len())
	sub := refEncoder{Objects: e.Objects, Deep: e.Deep}
	it := v.MapRange()
	for it.Next() {
		sub.Buf = nil
		sub.encode(it.Key(), depth+1)
		k := sub.Buf
		sub.Buf = nil
		sub.encode(it.Value(), depth+1)
		entries = append(entries, entry{k, sub.Buf})
	}
	slices.SortFunc(entries, func(a, b entry) int { return bytes.Compare(a.k, b.k) })
	e.Buf = append(e.Buf, TagMap)
	e.Buf = binary.AppendUvarint(e.Buf, uint64(len(entries)))
	for _, en := range entries {
		e.Buf = append(e.Buf, en.k...)
		e.Buf = append(e.Buf, en.v...)
	}
}

func (e *refEncoder) encodeTime(v reflect.Value) {
	v = refReadable(v)
	t := *(*time.Time)(unsafe.Pointer(v.UnsafeAddr())) // Interface would allocate a copy
	name, off := t.Zone()
	e.Buf = append(e.Buf, TagTime)
	e.Buf = binary.AppendVarint(e.Buf, t.Unix())
	e.Buf = binary.AppendUvarint(e.Buf, uint64(t.Nanosecond()))
	if t.Location() == time.UTC {
		name = "UTC"
	}
	e.Buf = appendName(e.Buf, name)
	e.Buf = binary.AppendVarint(e.Buf, int64(off))
	// The representation itself, monotonic clock reading included, so that
	// Sub, Before and Equal answer in replay exactly as in the capture.
	if wall, ext, ok := refTimeFields(v); ok {
		e.Buf = append(e.Buf, 1)
		e.Buf = binary.AppendUvarint(e.Buf, wall.Uint())
		e.Buf = binary.AppendVarint(e.Buf, ext.Int())
	} else {
		e.Buf = append(e.Buf, 0)
	}
}

func refTimeFields(v reflect.Value) (wall, ext reflect.Value, ok bool) {
	idx := timeFieldIndex()
	if idx == nil {
		return reflect.Value{}, reflect.Value{}, false
	}
	return field(v, idx[0]), field(v, idx[1]), true
}

func refReadable(v reflect.Value) reflect.Value {
	if v.CanAddr() {
		return v
	}
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	return c
}

func (e *refEncoder) appendImplements(static, dyn reflect.Type, name string) {
	if !asserted.any.Load() {
		return
	}
	k := implKey{static, dyn}
	c, ok := prefixCache.Load(k)
	if !ok {
		var p implPrefix
		p.impl = Implements(static, dyn)
		rt, found := LookupType(TypeName(dyn))
		p.rebuilt = found && rt.Kind() != reflect.Interface
		c, _ = prefixCache.LoadOrStore(k, &p)
	}
	p := c.(*implPrefix)
	if len(p.impl) == 0 {
		return
	}
	rebuilt := p.rebuilt
	if name != TypeName(dyn) {
		// A replay placeholder re-encoded under its recorded name.
		rt, found := LookupType(name)
		rebuilt = found && rt.Kind() != reflect.Interface
	}
	if !rebuilt {
		e.appendImplNames(p.impl)
	}
}

func (e *refEncoder) appendImplNames(impl []string) {
	if len(impl) == 0 {
		return
	}
	e.Buf = append(e.Buf, TagImplements)
	e.Buf = binary.AppendUvarint(e.Buf, uint64(len(impl)))
	for _, n := range impl {
		e.Buf = appendName(e.Buf, n)
	}
}
