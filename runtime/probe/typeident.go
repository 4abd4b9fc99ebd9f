package probe

import (
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/rules-capture/rules_capture/runtime/value"
)

// Type identity in replay (docs/design/boundary-model.md, "Type identity"): the
// transform registers the interface types observed code asserts to, and
// generates, for each interface type at the boundary, placeholders that also
// implement combinations of them; replay picks the one whose method set
// matches what the capture's value implemented (value.Implements).

// Asserted registers I as an interface type observed code asserts values to
// (a type assertion, a case of a type switch, an errors.As target).
func Asserted[I any]() struct{} {
	value.RegisterAsserted(reflect.TypeFor[I]())
	return struct{}{}
}

// RecordedError is replay's stand-in for a recorded error of a type it
// cannot rebuild; generated stand-ins that must implement more interfaces
// embed it.
type RecordedError = value.Error

// ErrorStandIn registers a generated stand-in for recorded errors that
// implements asserted interfaces besides error.
func ErrorStandIn(mk func(e *RecordedError) error) struct{} {
	value.RegisterErrorStandIn(mk)
	return struct{}{}
}

var combos struct {
	sync.RWMutex
	makers map[reflect.Type][]func() reflect.Value          // static interface type -> placeholder makers
	byImpl map[reflect.Type]map[string]func() reflect.Value // built on first use
}

// PlaceholderCombo registers a placeholder of interface type I that also
// implements some asserted interfaces.
func PlaceholderCombo[I any](make func() I) struct{} {
	combos.Lock()
	if combos.makers == nil {
		combos.makers = map[reflect.Type][]func() reflect.Value{}
	}
	t := reflect.TypeFor[I]()
	combos.makers[t] = append(combos.makers[t], func() reflect.Value { return reflect.ValueOf(make()) })
	combos.byImpl = nil
	combos.Unlock()
	return struct{}{}
}

// comboFor returns the maker of a placeholder of interface type t that
// implements exactly the asserted interfaces impl beyond t, if generated.
func comboFor(t reflect.Type, impl []string) func() reflect.Value {
	key := value.JoinImplements(impl)
	combos.RLock()
	m := combos.byImpl
	combos.RUnlock()
	if m == nil {
		combos.Lock()
		m = map[reflect.Type]map[string]func() reflect.Value{}
		for st, mks := range combos.makers {
			m[st] = map[string]func() reflect.Value{}
			for _, mk := range mks {
				m[st][value.JoinImplements(value.Implements(st, mk().Type()))] = mk
			}
		}
		combos.byImpl = m
		combos.Unlock()
	}
	return m[t][key]
}

// placeholderImpl is placeholder for a value whose dynamic type also
// implemented the asserted interfaces impl.
func placeholderImpl(name string, t reflect.Type, impl []string) (reflect.Value, error) {
	if t.Kind() == reflect.Interface {
		if mk := comboFor(t, impl); mk != nil {
			return mk(), nil
		}
	}
	return placeholder(name, t)
}

// RefImpl is Ref for a recorded reference whose dynamic type implemented
// the asserted interfaces impl (value.ImplResolver).
func (p *player) RefImpl(id uint64, name string, t reflect.Type, impl []string) (reflect.Value, error) {
	var whole reflect.Type
	if t.Kind() == reflect.Interface {
		whole, _ = p.Whole(id)
	}
	p.objMu.Lock()
	defer p.objMu.Unlock()
	if s, ok := p.standInOverLocked(id, name, t, impl, whole); ok {
		return s, nil
	}
	if v, ok := p.byID[id]; ok {
		if v.Type().AssignableTo(t) {
			return v, nil
		}
		if v.Kind() == reflect.Interface && v.Elem().Type().AssignableTo(t) {
			return v.Elem(), nil
		}
	}
	v, err := placeholderImpl(name, t, impl)
	if err != nil {
		return reflect.Value{}, err
	}
	p.bindLocked(id, v, name)
	return v, nil
}

// StandImpl is Stand for a value recorded by value whose dynamic type
// implemented the asserted interfaces impl.
func (p *player) StandImpl(name string, raw []byte, t reflect.Type, impl []string) (reflect.Value, error) {
	v, err := placeholderImpl(name, t, impl)
	if err != nil {
		return reflect.Value{}, err
	}
	if k := identity(v); k != nil {
		p.objMu.Lock()
		p.ids[k] = objInfo{name: name, raw: raw}
		p.objMu.Unlock()
	}
	noteCrossed(v)
	return v, nil
}

var promotedMethods struct {
	sync.RWMutex
	byType map[reflect.Type]map[string]bool
	any    atomic.Bool
}

// Promoted registers the exported methods observed type T gets from an
// embedded external type: calling one runs external code.
func Promoted[T any](names ...string) struct{} {
	promotedMethods.Lock()
	if promotedMethods.byType == nil {
		promotedMethods.byType = map[reflect.Type]map[string]bool{}
	}
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	promotedMethods.byType[reflect.TypeFor[T]()] = m
	promotedMethods.any.Store(true)
	promotedMethods.Unlock()
	return struct{}{}
}

// ObservedMethod reports whether calling method name on x, an interface
// value, runs observed code: x's dynamic type belongs to the observed set
// and the method is its own, not promoted from an embedded external type.
func ObservedMethod(x any, name string) bool {
	if !Observed(x) {
		return false
	}
	if !promotedMethods.any.Load() {
		return true
	}
	t := reflect.TypeOf(x)
	if t.Kind() == reflect.Pointer && t.Name() == "" {
		t = t.Elem()
	}
	promotedMethods.RLock()
	p := promotedMethods.byType[t][name]
	promotedMethods.RUnlock()
	return !p
}
