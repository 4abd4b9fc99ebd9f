package value

import (
	"encoding/binary"
	"math"
	"reflect"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// Per-type encoders.
//
// Encoding a value by generic reflection dispatches on the kind of every
// value and goes through reflect.Value.Field and Index for every field and
// element (~800 ns for the shop's Quote). Instead, the first value of each
// type compiles an encoding plan for it: a function that encodes a value of
// the type from its address, with struct field offsets, element sizes, the
// type's name and the plans of its fields and elements worked out once.
// Plans are cached per reflect.Type for the life of the process.
//
// A plan reads memory through unsafe pointers, so it never needs the
// "unexported field" workaround of reflection; it builds a reflect.Value only
// where the object table wants one (references) and for maps and interfaces,
// which stay generic.

// An encPlan encodes a value of type t stored at p. depth is the value's
// nesting depth, already checked against MaxDepth by the caller.
type encPlan struct {
	t    reflect.Type
	enc  planEncoder
	kind reflect.Kind // t.Kind(), without reading t's descriptor
	// boxed: Encode[T] encodes a value of t from an interface holding it
	// (interfaces, and pointer-shaped kinds: no allocation).
	boxed bool

	name   string                  // TypeName(t)
	fields []fieldPlan             // structs
	elem   *encPlan                // slices and arrays
	size   uintptr                 // element size: slices and arrays
	n      int                     // arrays: length
	ptrEl  atomic.Pointer[encPlan] // pointers: plan of the pointee, made on first use
	// exported: structs, the fields exportedFields writes, made on first use
	exported atomic.Pointer[[]exportedField]
	direct   bool // pointers: t is the unnamed pointer type of its element
	// everyTime: pointers, the pointee is written at every sight
	// (pointee.go)
	everyTime bool
	// redact: values of this plan are secret (redact.go), described so.
	redact string

	// isError: t implements error (an interface value of dynamic type t is
	// encoded as an error).
	isError bool
	// observed caches IsObservedType(t.Elem()) for pointers.
	observed genCachedBool
	// fieldBuf holds the fields of a small struct next to the plan: one
	// allocation, and the lines encStruct reads are adjacent.
	fieldBuf [8]fieldPlan

	// typedErr caches typedError's answer, for the generation of
	// prefixGen (RegisterType).
	typedErr genCachedBool
	// sentinels caches sentinelType's answer, for the generation of
	// sentinelGen.
	sentinels genCachedBool
	// impl caches appendImplements' answer for an interface value of
	// dynamic type t in a slot of one static type (the last asked).
	impl atomic.Pointer[implCached]

	// spare is a value of type t (a *T) free for use as scratch memory:
	// Encode[T] copies its argument into it, so that the plan reads it
	// through an address without moving the argument to the heap. One
	// value, taken by an atomic swap: a sync.Pool costs several cache
	// lines per use, which in place (caches cold between two events) is
	// most of a small value's encoding.
	spare unsafe.Pointer
}

// getScratch returns a value of type t to encode from: the spare, or a new
// one if another encoding holds it.
func (pl *encPlan) getScratch() unsafe.Pointer {
	if p := atomic.SwapPointer(&pl.spare, nil); p != nil {
		return p
	}
	return reflect.New(pl.t).UnsafePointer()
}

// putScratch makes p, cleared by the caller (so that it keeps nothing
// alive), the spare.
func (pl *encPlan) putScratch(p unsafe.Pointer) {
	atomic.StorePointer(&pl.spare, p)
}

// A planEncoder encodes the value of plan pl at p (pl may be nil for the
// scalar kinds' encoders, which need nothing of it).
type planEncoder func(e *Encoder, pl *encPlan, p unsafe.Pointer, depth int)

type fieldPlan struct {
	off uintptr
	op  fieldOp // how encStruct encodes the field: inline for the common scalars, else by pl
	pl  *encPlan
}

// A fieldOp names the encoders encStruct runs inline, without loading the
// field's plan or calling through it: in place, each plan and each
// indirect call target is a cache miss.
type fieldOp uint8

const (
	opPlan fieldOp = iota // pl.enc
	opString
	opInt
	opInt64
	opBool
	opTime
)

// fieldOpOf returns the inline op of a field of type t.
func fieldOpOf(t reflect.Type) fieldOp {
	switch t.Kind() {
	case reflect.String:
		return opString
	case reflect.Int:
		return opInt
	case reflect.Int64:
		return opInt64
	case reflect.Bool:
		return opBool
	case reflect.Struct:
		if t == timeType {
			return opTime
		}
	}
	return opPlan
}

// plans: reflect.Type -> *encPlan, complete plans only.
var plans sync.Map

// planMu serializes the building of plans, so that a recursive type's plans
// refer to each other and are published complete.
var planMu sync.Mutex

// planFor returns the encoding plan of t.
func planFor(t reflect.Type) *encPlan {
	// Recent plans by the address of the type's descriptor first (as
	// TypeName): a sync.Map lookup hashes an interface.
	i := typeSlot(t, len(recentPlans))
	if pl := recentPlans[i].Load(); pl != nil && pl.t == t {
		return pl
	}
	if pl := recentPlans[i^1].Load(); pl != nil && pl.t == t {
		return pl
	}
	pl := planForSlow(t)
	// The first types keep the two slots: no churn on collisions.
	if !recentPlans[i].CompareAndSwap(nil, pl) {
		recentPlans[i^1].CompareAndSwap(nil, pl)
	}
	return pl
}

// recentPlans caches complete plans in front of plans, two ways.
var recentPlans [1024]atomic.Pointer[encPlan]

func planForSlow(t reflect.Type) *encPlan {
	if pl, ok := plans.Load(t); ok {
		return pl.(*encPlan)
	}
	planMu.Lock()
	defer planMu.Unlock()
	if pl, ok := plans.Load(t); ok {
		return pl.(*encPlan)
	}
	building := map[reflect.Type]*encPlan{}
	pl := buildPlan(t, building)
	for bt, bp := range building {
		plans.Store(bt, bp)
	}
	return pl
}

// buildPlan makes the plan of t and of the types of its fields and elements
// (not of the pointees of pointers, which get theirs on first use: a plan
// for every type reachable from *sql.DB would be waste). Called with planMu
// held.
func buildPlan(t reflect.Type, building map[reflect.Type]*encPlan) *encPlan {
	if pl, ok := plans.Load(t); ok {
		return pl.(*encPlan)
	}
	if pl, ok := building[t]; ok {
		return pl // a recursive type: filled in by the outer call
	}
	pl := newPlan()
	pl.t, pl.kind, pl.name, pl.isError = t, t.Kind(), TypeName(t), t.Implements(errorType)
	switch pl.kind {
	case reflect.Interface, reflect.Pointer, reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		pl.boxed = true
	}
	building[t] = pl
	switch k := t.Kind(); k {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		pl.enc = scalarEncoders[k]
		if desc := typeRedaction(t); desc != "" {
			pl.redact, pl.enc = desc, encSecretString
		}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			pl.enc = encByteSlice
			if desc := typeRedaction(t); desc != "" {
				pl.redact, pl.enc = desc, encSecretBytes
			}
			break
		}
		pl.elem = buildPlan(t.Elem(), building)
		pl.size = t.Elem().Size()
		pl.enc = encSlice
	case reflect.Array:
		pl.elem = buildPlan(t.Elem(), building)
		pl.size = t.Elem().Size()
		pl.n = t.Len()
		pl.enc = encArray
	case reflect.Map:
		pl.enc = encMapPlan
	case reflect.Struct:
		if t == timeType {
			pl.enc = encTimePlan
			break
		}
		if t == reflectValueType {
			pl.enc = encReflectValue // by what it refers to (reflectvalue.go)
			break
		}
		if t == atomicValueType {
			// Encoded as the struct it is, but read with Load: another
			// goroutine may be storing into it (a context being cancelled
			// while its request crosses), and a plain read can see the
			// type word of a first Store in progress, which is no type.
			pl.fields = pl.fieldBuf[:1]
			pl.fields[0] = fieldPlan{op: opPlan, pl: buildPlan(t.Field(0).Type, building)}
			pl.enc = encAtomicValue
			break
		}
		if n := t.NumField(); n <= len(pl.fieldBuf) {
			pl.fields = pl.fieldBuf[:n]
		} else {
			pl.fields = make([]fieldPlan, n)
		}
		for i := range pl.fields {
			f := t.Field(i)
			fp := fieldPlan{off: f.Offset, op: fieldOpOf(f.Type), pl: buildPlan(f.Type, building)}
			if desc := fieldRedaction(t, f.Name, f.Type); desc != "" {
				fp.op, fp.pl = opPlan, secretPlan(f.Type, desc)
			} else if fp.pl.redact != "" {
				fp.op = opPlan // a secret type: its plan's encoder
			}
			pl.fields[i] = fp
		}
		pl.enc = encStruct
	case reflect.Pointer:
		pl.direct = t == reflect.PointerTo(t.Elem())
		pl.everyTime = pointeeEveryTime(t.Elem())
		pl.enc = encPointer
	case reflect.Chan, reflect.UnsafePointer:
		pl.enc = encRefWord
	case reflect.Func:
		pl.enc = encFunc
	case reflect.Interface:
		pl.enc = encInterface
	default:
		pl.enc = encOpaque
	}
	return pl
}

// newPlan returns a zero plan from the current chunk of plans (called with
// planMu held): the plans a program uses sit together on few pages rather
// than among its other allocations, fewer TLB and cache misses in place,
// where they are cold between two events. Plans are never freed.
func newPlan() *encPlan {
	if len(planChunk) == 0 {
		planChunk = make([]encPlan, 32)
	}
	pl := &planChunk[0]
	planChunk = planChunk[1:]
	return pl
}

// planChunk: the plans newPlan has yet to hand out.
var planChunk []encPlan

// at encodes the value of plan pl at p, nested depth deep.
func (e *Encoder) at(pl *encPlan, p unsafe.Pointer, depth int) {
	if depth > MaxDepth {
		e.Buf = append(e.Buf, TagTruncated)
		return
	}
	pl.enc(e, pl, p, depth)
}

// scalarEncoders are the encoders of the scalar kinds (booleans, numbers,
// strings), by kind: the plans of scalar types, and non-addressable scalars
// copied to memory (Encoder.scalar).
var scalarEncoders = [...]planEncoder{
	reflect.Bool:       encBool,
	reflect.Int:        encInt,
	reflect.Int8:       encInt8,
	reflect.Int16:      encInt16,
	reflect.Int32:      encInt32,
	reflect.Int64:      encInt64,
	reflect.Uint:       encUint,
	reflect.Uint8:      encUint8,
	reflect.Uint16:     encUint16,
	reflect.Uint32:     encUint32,
	reflect.Uint64:     encUint64,
	reflect.Uintptr:    encUintptr,
	reflect.Float32:    encFloat32,
	reflect.Float64:    encFloat64,
	reflect.Complex64:  encComplex64,
	reflect.Complex128: encComplex128,
	reflect.String:     encString,
}

// scalarEncoder returns the encoder of the scalar kind k, nil for the other
// kinds.
func scalarEncoder(k reflect.Kind) planEncoder {
	if int(k) < len(scalarEncoders) {
		return scalarEncoders[k]
	}
	return nil
}

func encBool(e *Encoder, _ *encPlan, p unsafe.Pointer, _ int) {
	e.Buf = AppendBool(e.Buf, *(*bool)(p))
}
func encInt(e *Encoder, _ *encPlan, p unsafe.Pointer, _ int) {
	e.Buf = AppendInt(e.Buf, int64(*(*int)(p)))
}
func encInt8(e *Encoder, _ *encPlan, p unsafe.Pointer, _ int) {
	e.Buf = AppendInt(e.Buf, int64(*(*int8)(p)))
}
func encInt16(e *Encoder, _ *encPlan, p unsafe.Pointer, _ int) {
	e.Buf = AppendInt(e.Buf, int64(*(*int16)(p)))
}
func encInt32(e *Encoder, _ *encPlan, p unsafe.Pointer, _ int) {
	e.Buf = AppendInt(e.Buf, int64(*(*int32)(p)))
}
func encInt64(e *Encoder, _ *encPlan, p unsafe.Pointer, _ int) {
	e.Buf = AppendInt(e.Buf, *(*int64)(p))
}
func encUint(e *Encoder, _ *encPlan, p unsafe.Pointer, _ int) {
	e.Buf = AppendUint(e.Buf, uint64(*(*uint)(p)))
}
func encUint8(e *Encoder, _ *encPlan, p unsafe.Pointer, _ int) {
	e.Buf = AppendUint(e.Buf, uint64(*(*uint8)(p)))
}
func encUint16(e *Encoder, _ *encPlan, p unsafe.Pointer, _ int) {
	e.Buf = AppendUint(e.Buf, uint64(*(*uint16)(p)))
}
func encUint32(e *Encoder, _ *encPlan, p unsafe.Pointer, _ int) {
	e.Buf = AppendUint(e.Buf, uint64(*(*uint32)(p)))
}
func encUint64(e *Encoder, _ *encPlan, p unsafe.Pointer, _ int) {
	e.Buf = AppendUint(e.Buf, *(*uint64)(p))
}
func encUintptr(e *Encoder, _ *encPlan, p unsafe.Pointer, _ int) {
	e.Buf = AppendUint(e.Buf, uint64(*(*uintptr)(p)))
}
func encFloat32(e *Encoder, _ *encPlan, p unsafe.Pointer, _ int) {
	e.Buf = AppendFloat(e.Buf, float64(*(*float32)(p)))
}
func encFloat64(e *Encoder, _ *encPlan, p unsafe.Pointer, _ int) {
	e.Buf = AppendFloat(e.Buf, *(*float64)(p))
}
func encComplex64(e *Encoder, _ *encPlan, p unsafe.Pointer, _ int) {
	e.appendComplex(complex128(*(*complex64)(p)))
}
func encComplex128(e *Encoder, _ *encPlan, p unsafe.Pointer, _ int) {
	e.appendComplex(*(*complex128)(p))
}

func (e *Encoder) appendComplex(c complex128) {
	e.Buf = append(e.Buf, TagComplex)
	e.Buf = binary.LittleEndian.AppendUint64(e.Buf, math.Float64bits(real(c)))
	e.Buf = binary.LittleEndian.AppendUint64(e.Buf, math.Float64bits(imag(c)))
}

func encString(e *Encoder, _ *encPlan, p unsafe.Pointer, _ int) {
	e.String(*(*string)(p))
}

// encByteSlice: a slice of any byte kind (named byte types included: the
// same memory layout).
func encByteSlice(e *Encoder, pl *encPlan, p unsafe.Pointer, _ int) {
	e.bytesView(*(*[]byte)(p), pl.t.Elem())
}

func encSlice(e *Encoder, pl *encPlan, p unsafe.Pointer, depth int) {
	h := (*sliceHeader)(p)
	if h.data == nil {
		e.Buf = append(e.Buf, TagNil)
		return
	}
	e.view(h.data, h.cap, pl.t.Elem())
	e.elements(pl, h.data, h.len, depth)
}

type sliceHeader struct {
	data unsafe.Pointer
	len  int
	cap  int
}

func encArray(e *Encoder, pl *encPlan, p unsafe.Pointer, depth int) {
	e.elements(pl, p, pl.n, depth)
}

// elements writes a list of n elements of pl's element plan from data on.
func (e *Encoder) elements(pl *encPlan, data unsafe.Pointer, n int, depth int) {
	e.Buf = append(e.Buf, TagList)
	e.Buf = binary.AppendUvarint(e.Buf, uint64(n))
	if depth+1 > MaxDepth {
		for range n {
			e.Buf = append(e.Buf, TagTruncated)
		}
		return
	}
	el := pl.elem
	for i := range n {
		el.enc(e, el, unsafe.Add(data, uintptr(i)*pl.size), depth+1)
	}
}

func encMapPlan(e *Encoder, pl *encPlan, p unsafe.Pointer, depth int) {
	if *(*unsafe.Pointer)(p) == nil {
		e.Buf = append(e.Buf, TagNil)
		return
	}
	// The map itself (Interface of a map is its pointer), not a value
	// pointing at p: p may be memory encodeMap's iterator must not keep.
	e.encodeMap(reflect.ValueOf(reflect.NewAt(pl.t, p).Elem().Interface()), depth)
}

func encTimePlan(e *Encoder, _ *encPlan, p unsafe.Pointer, _ int) {
	e.appendTime(p)
}

func encStruct(e *Encoder, pl *encPlan, p unsafe.Pointer, depth int) {
	e.Buf = append(e.Buf, TagRecord)
	e.Buf = binary.AppendUvarint(e.Buf, uint64(len(pl.fields)))
	if depth+1 > MaxDepth {
		for range pl.fields {
			e.Buf = append(e.Buf, TagTruncated)
		}
		return
	}
	for i := range pl.fields {
		f := &pl.fields[i]
		q := unsafe.Add(p, f.off)
		switch f.op {
		case opString:
			e.String(*(*string)(q))
		case opInt:
			e.Buf = AppendInt(e.Buf, int64(*(*int)(q)))
		case opInt64:
			e.Buf = AppendInt(e.Buf, *(*int64)(q))
		case opBool:
			e.Buf = AppendBool(e.Buf, *(*bool)(q))
		case opTime:
			e.appendTime(q)
		default:
			f.pl.enc(e, f.pl, q, depth+1)
		}
	}
}

func encPointer(e *Encoder, pl *encPlan, p unsafe.Pointer, depth int) {
	ptr := *(*unsafe.Pointer)(p)
	if ptr == nil {
		e.Buf = append(e.Buf, TagNil)
		return
	}
	// The object table gets a reflect.Value holding the pointer itself, not
	// one pointing at p (which may be a copy the table must not keep).
	var v reflect.Value
	if pl.direct {
		v = reflect.NewAt(pl.t.Elem(), ptr)
	} else {
		v = reflect.ValueOf(reflect.NewAt(pl.t, p).Elem().Interface())
	}
	e.pointer(pl, v, ptr, depth)
}

// pointer encodes v, a non-nil pointer of plan pl to ptr: a reference, or
// an observed object with its pointee on first sight.
func (e *Encoder) pointer(pl *encPlan, v reflect.Value, ptr unsafe.Pointer, depth int) {
	if pl.everyTime && !barePointees {
		e.pointeeObject(pl, v, ptr, depth)
		return
	}
	if e.Deep || pl.observedElem() {
		first := e.refNamed(TagObject, v, pl.name, true)
		if e.Refresh {
			// Observed objects keep their first-sight rule (their state is
			// the set's own, which replay makes again); others are written
			// once per encoding.
			if first {
				e.refreshed(ptr)
			} else if !pl.observedElem() {
				first = e.refreshed(ptr)
			}
			if first && DeepPointee != nil && !pl.observedElem() {
				DeepPointee(v)
			}
		}
		if first {
			el := pl.ptrEl.Load()
			if el == nil {
				el = planFor(pl.t.Elem())
				pl.ptrEl.Store(el)
			}
			cd, own := e.contentsDepth(depth)
			if own {
				e.objNest++
			}
			if e.Outgoing && el.kind == reflect.Struct {
				e.exportedFields(el, ptr, cd)
			} else {
				e.at(el, ptr, cd)
			}
			if own {
				e.objNest--
			}
		} else {
			e.Buf = append(e.Buf, TagNil)
		}
		return
	}
	e.refNamed(TagRef, v, pl.name, true)
}

// typedError reports whether an error of pl's type is recorded by value
// (TagTypedError): its type is registered under its name and replay can
// rebuild it. Cached in the plan while no RegisterType has changed the
// answer (LookupType takes a lock and hashes the name).
func (pl *encPlan) typedError() bool {
	gen := prefixGen.Load()
	if typed, ok := pl.typedErr.get(gen); ok {
		return typed
	}
	rt, ok := LookupType(pl.name)
	typed := ok && rt == pl.t && rebuildable(pl.t)
	pl.typedErr.set(gen, typed)
	return typed
}

// sentinelType reports whether a registered sentinel has pl's type: an
// error of another type is none, without the sentinel table's lookup
// (which hashes the error). Cached as typedError.
func (pl *encPlan) sentinelType() bool {
	gen := sentinelGen.Load()
	if has, ok := pl.sentinels.get(gen); ok {
		return has
	}
	_, has := sentinelTypes.Load(pl.t)
	pl.sentinels.set(gen, has)
	return has
}

// observedElem is IsObservedType(pl.t.Elem()) for a pointer plan, from the
// plan while no registration has changed the answer.
func (pl *encPlan) observedElem() bool {
	if obs, ok := pl.observed.get(observedGen.Load()); ok {
		return obs
	}
	obs, gen := isObservedType(pl.t.Elem())
	pl.observed.set(gen, obs)
	return obs
}

// genCachedBool caches a yes/no answer that holds until a registration
// generation changes: (generation+1)<<1 | answer, 0 before the first answer.
// One word, so a reader never sees an answer with another answer's generation.
type genCachedBool struct{ w atomic.Uint64 }

// get returns the answer cached for generation gen; ok is false if there is
// none for gen.
func (c *genCachedBool) get(gen uint64) (answer, ok bool) {
	w := c.w.Load()
	if w == 0 || w>>1-1 != gen {
		return false, false
	}
	return w&1 == 1, true
}

func (c *genCachedBool) set(gen uint64, answer bool) {
	w := (gen + 1) << 1
	if answer {
		w |= 1
	}
	c.w.Store(w)
}

func encRefWord(e *Encoder, pl *encPlan, p unsafe.Pointer, _ int) {
	if *(*unsafe.Pointer)(p) == nil {
		e.Buf = append(e.Buf, TagNil)
		return
	}
	e.refNamed(TagRef, reflect.ValueOf(reflect.NewAt(pl.t, p).Elem().Interface()), pl.name, true)
}

func encFunc(e *Encoder, pl *encPlan, p unsafe.Pointer, _ int) {
	if *(*unsafe.Pointer)(p) == nil {
		e.Buf = append(e.Buf, TagNil)
		return
	}
	e.refNamed(TagRef, reflect.ValueOf(reflect.NewAt(pl.t, p).Elem().Interface()), pl.name, false)
}

// atomicValueType is sync/atomic.Value, a struct of one interface field
// that other goroutines write with atomic operations.
var atomicValueType = reflect.TypeFor[atomic.Value]()

// encAtomicValue encodes an atomic.Value as encStruct would (a record of
// its one interface field) from what Load returns, so a Store running on
// another goroutine is seen whole or not at all (TestAtomicValueWhileStored).
func encAtomicValue(e *Encoder, pl *encPlan, p unsafe.Pointer, depth int) {
	e.Buf = append(e.Buf, TagRecord)
	e.Buf = binary.AppendUvarint(e.Buf, 1)
	if depth+1 > MaxDepth {
		e.Buf = append(e.Buf, TagTruncated)
		return
	}
	x := (*atomic.Value)(p).Load()
	if x == nil {
		e.Buf = append(e.Buf, TagNil)
		return
	}
	e.encodeIface(pl.fields[0].pl.t, reflect.ValueOf(x), x, depth+1)
}

func encInterface(e *Encoder, pl *encPlan, p unsafe.Pointer, depth int) {
	v := reflect.NewAt(pl.t, p).Elem()
	if v.IsNil() {
		e.Buf = append(e.Buf, TagNil)
		return
	}
	e.encodeIface(pl.t, v.Elem(), nil, depth)
}

func encOpaque(e *Encoder, pl *encPlan, _ unsafe.Pointer, _ int) {
	e.Buf = append(e.Buf, TagOpaque)
	e.Buf = appendName(e.Buf, pl.name)
	e.Buf = appendName(e.Buf, pl.t.Kind().String())
}

// appendTime encodes the time.Time at p.
func (e *Encoder) appendTime(p unsafe.Pointer) {
	t := *(*time.Time)(p)
	sec := t.Unix()
	name, off := e.zone(t, sec)
	e.Buf = append(e.Buf, TagTime)
	e.Buf = binary.AppendVarint(e.Buf, sec)
	e.Buf = binary.AppendUvarint(e.Buf, uint64(t.Nanosecond()))
	e.Buf = appendName(e.Buf, name)
	e.Buf = binary.AppendVarint(e.Buf, int64(off))
	// The representation itself, monotonic clock reading included, so that
	// Sub, Before and Equal answer in replay exactly as in the capture.
	if offs := timeOffsets; offs != nil {
		e.Buf = append(e.Buf, 1)
		e.Buf = binary.AppendUvarint(e.Buf, *(*uint64)(unsafe.Add(p, offs[0])))
		e.Buf = binary.AppendVarint(e.Buf, *(*int64)(unsafe.Add(p, offs[1])))
	} else {
		e.Buf = append(e.Buf, 0)
	}
}

// zone returns the name and offset of t's zone; t.Unix() is sec. The last
// two zones an encoder looked up answer the times of their locations within
// the zones' bounds (a program's times mostly share a zone or two: the
// local one and one it converts to), without the location's lookup.
func (e *Encoder) zone(t time.Time, sec int64) (string, int) {
	loc := t.Location()
	if loc == time.UTC {
		return "UTC", 0 // zero times, times from the wire
	}
	for i := range e.zones {
		if z := &e.zones[i]; z.loc == loc && z.start <= sec && sec < z.end {
			return z.name, z.off
		}
	}
	name, off := t.Zone()
	start, end := t.ZoneBounds()
	e.zones[1] = e.zones[0]
	z := &e.zones[0]
	*z = zoneCache{loc: loc, start: math.MinInt64, end: math.MaxInt64, name: name, off: off}
	if !start.IsZero() {
		z.start = start.Unix()
	}
	if !end.IsZero() {
		z.end = end.Unix()
	}
	return name, off
}

// zoneCache is the zone of loc from start to end (Unix seconds, end
// excluded).
type zoneCache struct {
	loc        *time.Location
	start, end int64
	name       string
	off        int
}

// timeOffsets is timeFieldOffsets(), read without the sync.Once (a line
// of its own, cold in place).
var timeOffsets = timeFieldOffsets()

// timeFieldOffsets: the offsets of time.Time's wall and ext fields, if this
// Go version still has them.
var timeFieldOffsets = sync.OnceValue(func() *[2]uintptr {
	idx := timeFieldIndex()
	if idx == nil {
		return nil
	}
	return &[2]uintptr{timeType.Field(idx[0]).Offset, timeType.Field(idx[1]).Offset}
})
