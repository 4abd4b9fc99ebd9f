package probe

import (
	"fmt"
	"reflect"
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
	p.bindLocked(p.maxID+1, v, name)
	return p.maxID, true, name
}

// knownLocked returns the ID of v if it has one (called with objMu held).
func (p *player) knownLocked(v reflect.Value, name string) (uint64, bool, string, bool) {
	if o, ok := p.ids[p.key(v)]; ok {
		n := o.name
		if o.typ != nil && v.Type() != o.typ && value.TypeName(o.typ) == o.name {
			// The same address seen as another type: a pointer to the first
			// field of a real object (&s.embedded). The capture names it by
			// its own type, as here; only stand-ins keep
			// the recorded name.
			n = name
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
	var whole reflect.Type
	if t.Kind() == reflect.Pointer {
		whole, _ = p.Whole(id)
	}
	p.objMu.Lock()
	defer p.objMu.Unlock()
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
		return reflect.New(t.Elem()), nil
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
