package probe

import (
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/rules-capture/rules_capture/runtime/value"
)

type objInfo struct {
	id    uint64
	name  string
	typ   reflect.Type // of the value bound to id (nil for stand-ins from Stand)
	raw   []byte       // recorded encoding of a placeholder that stands in for a value
	fresh bool         // created from contents in the log: its next encoding carries them too
	size  uintptr      // the largest pointee size it was encoded as: a larger one is a first sight again (objEntry.size)
	// standIn is the placeholder type that stands in, at this real
	// object's address, for the type standInName the log also names it by,
	// one this build cannot name (standInOverLocked); nil if none.
	standIn     reflect.Type
	standInName string
}

// Value resolution in replay: log object IDs bound to replay objects.

func (p *player) ID(v reflect.Value, name string, _ bool) (uint64, bool, string) {
	p.objMu.Lock()
	defer p.objMu.Unlock()
	if id, first, n, ok := p.knownLocked(v, name); ok {
		return id, first, n
	}
	// A new object at the boundary, numbered by no event being built (a
	// callback's closure): the capture numbered objects in the same order,
	// so the next number is the one it gave.
	prev := p.maxID
	p.bindLocked(p.maxID+1, v, name)
	p.noteFreshFunc(p.maxID, v, name, prev) // funcids.go
	return p.maxID, true, name
}

// knownLocked returns the ID of v if it has one (called with objMu held).
func (p *player) knownLocked(v reflect.Value, name string) (uint64, bool, string, bool) {
	if o, ok := p.ids[p.key(v)]; ok {
		n := o.name
		if o.standIn != nil && v.Type() == o.standIn {
			// The stand-in over a real object (standInOverLocked): named by
			// the type the capture saw, as stand-ins are.
			n = o.standInName
		} else if o.typ != nil && v.Type() != o.typ && value.TypeName(o.typ) == o.name {
			// The same address seen as another type: a pointer to the first
			// field of a real object (&s.embedded). The capture names it by
			// its own type, as here; only stand-ins keep
			// the recorded name.
			n = name
			if cv := concrete(v); o.standIn == nil && o.raw == nil && cv.Kind() == reflect.Pointer &&
				o.typ.Kind() == reflect.Pointer && value.LeadsWith(cv.Type().Elem(), o.typ.Elem()) {
				// The replayed code hands out a pointer to a struct at the
				// address of an object first bound as the struct's first
				// field (gods' treebidimap: an outcall on &m.forwardMap,
				// then m itself as an incall's result): the memory there is
				// the struct, so the ID is bound to it, and later sights of
				// the ID as the struct (the test passing m back) decode to
				// the object itself, while those as its first field still
				// point into it.
				p.byID[o.id] = cv
				o.typ, o.name = cv.Type(), name
				p.ids[p.key(v)] = o
			}
		}
		size := pointeeSize(v)
		if o.fresh {
			// The capture gave this object's contents at the event that
			// introduced it; the replayed code re-encodes that event.
			o.fresh = false
			o.size = max(o.size, size)
			p.ids[p.key(v)] = o
			return o.id, true, n, true
		}
		if size > o.size && o.typ != nil {
			// Seen as a larger type than before (a struct whose first
			// field crossed first): the capture gave the contents again.
			o.size = size
			p.ids[p.key(v)] = o
			return o.id, true, n, true
		}
		return o.id, false, n, true
	}
	return 0, false, "", false
}

func (p *player) Recorded(ptr unsafe.Pointer) (string, []byte, bool) {
	p.objMu.Lock()
	defer p.objMu.Unlock()
	o, ok := p.ids[ptr]
	if ok && o.standIn != nil {
		// A stand-in over a real object (standInOverLocked): in an
		// interface, the object is the one of the type the log names.
		// Observed code's interface values at this address hold the
		// stand-in, as the real part's type is not the interface's (else
		// the log would name that type).
		return o.standInName, nil, true
	}
	if ok && o.typ != nil && o.name == value.TypeName(o.typ) {
		// A real object (or a stand-in of the recorded type), not one
		// standing in for a type this build cannot name: its type now is
		// its name, even when the same address was first bound as another
		// type (pflag's newIntValue returns the test's *int as an *intValue,
		// which replay named *int inside a flag.Value; corpus pkgvars'
		// TestIntVar).
		return "", nil, false
	}
	return o.name, o.raw, ok
}

func (p *player) Stand(name string, raw []byte, t reflect.Type) (reflect.Value, error) {
	v, err := placeholder(name, t)
	if err != nil {
		return reflect.Value{}, err
	}
	p.objMu.Lock()
	if v.Kind() == reflect.Func {
		p.funcStandIns[closurePointer(v)] = true
	}
	if k := p.key(v); k != nil {
		p.ids[k] = objInfo{name: name, raw: raw}
	}
	p.objMu.Unlock()
	noteCrossed(v)
	return v, nil
}

func (p *player) Object(id uint64) (reflect.Value, bool) {
	p.objMu.Lock()
	defer p.objMu.Unlock()
	v, ok := p.byID[id]
	return v, ok
}

func (p *player) Bind(id uint64, v reflect.Value, name string) {
	p.objMu.Lock()
	defer p.objMu.Unlock()
	p.bindLocked(id, v, name)
	if k := p.key(v); k != nil {
		o := p.ids[k]
		o.fresh = true
		o.size = 0 // the sight that re-encodes it sets it (knownLocked)
		p.ids[k] = o
	}
}

func (p *player) bindLocked(id uint64, v reflect.Value, name string) {
	noteCrossed(v)
	p.byID[id] = v
	if k := p.key(v); k != nil {
		p.ids[k] = objInfo{id: id, name: name, typ: concrete(v).Type(), size: pointeeSize(concrete(v))}
	}
	if id > p.maxID && id < varIDs {
		p.maxID = id
	}
}

// reserve binds id to v, the object an exported variable refers to after
// initialisation, unless v has an ID already (reserveVarObjects).
func (p *player) reserve(id uint64, v reflect.Value, name string) {
	p.objMu.Lock()
	defer p.objMu.Unlock()
	if _, ok := p.ids[p.key(v)]; !ok {
		p.bindLocked(id, v, name)
	}
}

// concrete is v, or the value in it if v is a non-nil interface.
func concrete(v reflect.Value) reflect.Value {
	if v.Kind() == reflect.Interface && !v.IsNil() {
		return v.Elem()
	}
	return v
}

func identity(v reflect.Value) unsafe.Pointer {
	switch v.Kind() {
	case reflect.Pointer, reflect.Chan, reflect.Map, reflect.UnsafePointer, reflect.Func:
		return v.UnsafePointer()
	case reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return identity(v.Elem())
	}
	return nil
}

func (p *player) Ref(id uint64, name string, t reflect.Type) (reflect.Value, error) {
	var whole, under reflect.Type
	switch t.Kind() {
	case reflect.Pointer:
		whole, _ = p.Whole(id)
	case reflect.Interface:
		under, _ = p.Whole(id)
	}
	w, inWhole, interior := p.placedOf(id, t)
	p.objMu.Lock()
	defer p.objMu.Unlock()
	if _, bound := p.byID[id]; !bound && interior {
		// A part of another object (replay_located.go).
		if x, ok := p.interiorLocked(t, w, inWhole); ok {
			p.bindLocked(id, x, name)
			return x, nil
		}
		p.noteUnplacedLocked(id)
	}
	if s, ok := p.standInOverLocked(id, name, t, nil, under); ok {
		return s, nil
	}
	if v, ok := p.byID[id]; ok {
		if v.Type().AssignableTo(t) {
			return v, nil
		}
		if v.Kind() == reflect.Interface && v.Elem().Type().AssignableTo(t) {
			return v.Elem(), nil
		}
		if v.Kind() == reflect.Pointer && !v.IsNil() && t.Kind() == reflect.Pointer && value.LeadsWith(v.Type().Elem(), t.Elem()) {
			// A reference to the start of an object replay made whole
			// (wholes.go), or to the first field of a real object.
			return reflect.NewAt(t.Elem(), v.UnsafePointer()), nil
		}
	} else if whole != nil && whole != t.Elem() && value.LeadsWith(whole, t.Elem()) {
		// First seen as a reference to the start of an object the log
		// later names as a whole struct (wholes.go): make the struct.
		w := reflect.New(whole)
		p.bindLocked(id, w, value.TypeName(w.Type()))
		o := p.ids[p.key(w)]
		o.size = t.Elem().Size() // seen as the part so far, as in the capture
		p.ids[p.key(w)] = o
		return reflect.NewAt(t.Elem(), w.UnsafePointer()), nil
	}
	v, err := placeholder(name, t)
	if err != nil {
		return reflect.Value{}, err
	}
	if v.Kind() == reflect.Func {
		p.funcStandIns[closurePointer(v)] = true
	}
	p.bindLocked(id, v, name)
	return v, nil
}

// Stand-ins over real objects. A log may name one object by a type this
// build cannot name, in an interface (replay stands in a placeholder), and
// by a type it can, at the same address: the external struct holds an
// observed one at its start. Goldmark's parser.Delimiter and extension/ast's
// nodes embed ast.BaseNode first; with ast observed they cross as ast.Node,
// and ast's calls of the promoted methods (n.AppendChild through the
// interface) reach (*ast.BaseNode).AppendChild as CALL_INs on the same
// address. Replay makes one object: the real one, as the log's types it can
// name need (Whole), and the stand-in, whose type holds no pointers, at its
// address. Observed code's calls through the interface go to the stand-in
// (outcalls, as in the capture), the CALL_INs drive the real object, and
// both sights are one ID, as they were one address in the capture.

// standInOverLocked returns the stand-in of interface type t for object id
// when the log names id by name, a type this build cannot name, and replay
// has (or, by whole, the struct holding the types of the log's other names
// for id at its start, makes) a real object for id: a placeholder at the
// real object's address. ok is false where that does not apply (the
// caller's rules make the value) or cannot be done (a placeholder holding
// pointers, or larger than the real object: the memory must not be
// reinterpreted).
func (p *player) standInOverLocked(id uint64, name string, t reflect.Type, impl []string, whole reflect.Type) (reflect.Value, bool) {
	if t.Kind() != reflect.Interface {
		return reflect.Value{}, false
	}
	real, bound := p.byID[id]
	if bound {
		if real.Kind() != reflect.Pointer || real.IsNil() {
			return reflect.Value{}, false
		}
		if o := p.ids[p.key(real)]; o.standIn != nil && o.standInName == name && o.standIn.Implements(t) {
			return reflect.NewAt(o.standIn.Elem(), real.UnsafePointer()), true
		}
		if real.Type().AssignableTo(t) {
			return reflect.Value{}, false
		}
	} else if whole == nil {
		return reflect.Value{}, false
	}
	if _, ok := value.LookupType(name); ok || name == "" {
		return reflect.Value{}, false
	}
	ph, err := placeholderImpl(name, t, impl)
	if err != nil || ph.Kind() != reflect.Pointer || !value.PointerFree(ph.Type().Elem()) {
		return reflect.Value{}, false
	}
	size := ph.Type().Elem().Size()
	if !bound {
		if size > whole.Size() {
			return reflect.Value{}, false
		}
		real = reflect.New(whole)
		p.bindLocked(id, real, value.TypeName(real.Type()))
	} else if size > real.Type().Elem().Size() {
		return reflect.Value{}, false
	}
	k := p.key(real)
	o := p.ids[k]
	o.standIn, o.standInName = ph.Type(), name
	// The object of the type the log names is at least as large as the
	// real one it holds at its start: a sight of that one is no larger
	// than the capture's sight of the whole, so no first sight again.
	o.size = max(o.size, real.Type().Elem().Size())
	p.ids[k] = o
	return reflect.NewAt(ph.Type().Elem(), real.UnsafePointer()), true
}

// key is the identity of v in p.ids: its address, or code pointer for a
// function value. Stand-ins for recorded function values share one code
// pointer (reflect.MakeFunc's), so they are told apart by their closure
// (else three function arguments replay as one object).
func (p *player) key(v reflect.Value) unsafe.Pointer {
	if k, ok := p.closureKey(v); ok {
		return k // an observed function value: its closure (closureid.go)
	}
	if v.Kind() == reflect.Func && !v.IsNil() && len(p.funcStandIns) > 0 {
		if c := closurePointer(v); p.funcStandIns[c] {
			return c
		}
	}
	return identity(v)
}

// closurePointer returns the address of function value v's closure
// (distinct for every reflect.MakeFunc result).
func closurePointer(v reflect.Value) unsafe.Pointer {
	pv := reflect.New(v.Type())
	pv.Elem().Set(v)
	return *(*unsafe.Pointer)(pv.UnsafePointer())
}

var (
	reflectType = reflect.TypeFor[reflect.Type]()
	nextRType   atomic.Int64
)

// makeMaps gives the exported map fields of a placeholder's pointee (at
// any depth of its exported struct and array fields, not through pointers)
// empty maps of their own. Observed code writes an element of an external
// struct's map field without an event (`c.Options[k] = v` in goldmark's
// html options, on a *renderer.Config): the write happens on the
// placeholder in replay and is not checked (docs/limitations.md), which
// into a nil map would panic where the capture did not.
func makeMaps(v reflect.Value) {
	if !hasMapFields(v.Type()) {
		return
	}
	switch v.Kind() {
	case reflect.Map:
		if v.IsNil() {
			v.Set(reflect.MakeMap(v.Type()))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				makeMaps(f)
			}
		}
	case reflect.Array:
		for i := range v.Len() {
			makeMaps(v.Index(i))
		}
	}
}

// mapFields caches hasMapFields: placeholders of a type are made often.
var mapFields sync.Map // reflect.Type -> bool

// hasMapFields reports whether a value of type t is, or holds in exported
// struct fields and array elements, a map (makeMaps).
func hasMapFields(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Map:
		return true
	case reflect.Struct, reflect.Array:
	default:
		return false
	}
	if has, ok := mapFields.Load(t); ok {
		return has.(bool)
	}
	has := false
	if t.Kind() == reflect.Array {
		has = t.Len() > 0 && hasMapFields(t.Elem())
	} else {
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && hasMapFields(f.Type) {
				has = true
				break
			}
		}
	}
	mapFields.Store(t, has)
	return has
}

// placeholder makes a stand-in for a recorded reference: every use of it by
// observed code is intercepted, so its state never matters.
func placeholder(name string, t reflect.Type) (reflect.Value, error) {
	if t == reflectType {
		// reflect.Type has unexported methods, so no generated type can
		// stand in; a distinct real type can (its methods are outcalls).
		n := int(nextRType.Add(1))
		return reflect.ValueOf(reflect.ArrayOf(n, reflect.TypeFor[struct{ _ byte }]())), nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		if t.Elem().Size() == 0 {
			// reflect.New of a zero-size type returns one shared address,
			// and an object's address is its identity: give each
			// placeholder a byte of its own (*runtime.Func).
			return reflect.NewAt(t.Elem(), unsafe.Pointer(new(byte))), nil
		}
		v := reflect.New(t.Elem())
		makeMaps(v.Elem())
		return v, nil
	case reflect.Map:
		return reflect.MakeMap(t), nil
	case reflect.Chan:
		return reflect.MakeChan(reflect.ChanOf(reflect.BothDir, t.Elem()), 0).Convert(t), nil
	case reflect.Func:
		return reflect.MakeFunc(t, func([]reflect.Value) []reflect.Value {
			panic("replay: observed code called a function value from the log (" + name + "): not replayed yet")
		}), nil
	case reflect.UnsafePointer:
		return reflect.ValueOf(unsafe.Pointer(new(byte))), nil
	case reflect.Interface:
		if dyn, ok := value.LookupType(name); ok && dyn.Implements(t) {
			if dyn.Kind() == reflect.Pointer {
				return reflect.New(dyn.Elem()), nil
			}
			return reflect.New(dyn).Elem(), nil
		}
		placeholdersMu.RLock()
		mk := placeholders[t]
		placeholdersMu.RUnlock()
		if mk != nil {
			return mk(), nil
		}
		if t.NumMethod() == 0 {
			return reflect.ValueOf(&Ref{Type: name}), nil
		}
	}
	return reflect.Value{}, fmt.Errorf("replay cannot make a stand-in of %s for a recorded %s: register the type (docs/annotations.md)", value.TypeName(t), name)
}
