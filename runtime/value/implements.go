package value

import (
	"encoding/binary"
	"reflect"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Type identity of values replay cannot rebuild by name.
//
// Observed code asks interface values from outside what else they are:
// `s.(Sided)`, `case io.WriterTo:`, `errors.As(err, &tmp)` with an interface
// target. When the dynamic type is one replay can rebuild (registered), the
// answers are the same by construction. When it is not (an unexported type of
// another package), replay stands in with a placeholder, which must implement
// exactly the asserted interfaces the capture's value implemented. So the
// transform registers every interface type observed code asserts to, the
// encoder prefixes such a value with the names of the asserted interfaces its
// dynamic type implements beyond its static type (TagImplements), and replay
// picks a generated placeholder with that method set.

var asserted struct {
	sync.RWMutex
	byName map[string]reflect.Type
	list   []reflect.Type // sorted by name
	any    atomic.Bool
}

// implCache: (static, dynamic) type pair -> names of asserted interfaces the
// dynamic type implements and the static type does not.
var implCache sync.Map

type implKey struct{ static, dyn reflect.Type }

// RegisterAsserted records an interface type observed code asserts values to.
func RegisterAsserted(t reflect.Type) {
	if t.Kind() != reflect.Interface || t.NumMethod() == 0 {
		return
	}
	asserted.Lock()
	defer asserted.Unlock()
	if asserted.byName == nil {
		asserted.byName = map[string]reflect.Type{}
	}
	name := TypeName(t)
	if _, dup := asserted.byName[name]; dup {
		return
	}
	asserted.byName[name] = t
	asserted.list = append(asserted.list, t)
	sort.Slice(asserted.list, func(i, j int) bool { return TypeName(asserted.list[i]) < TypeName(asserted.list[j]) })
	implCache.Clear()
	prefixCache.Clear()
	prefixGen.Add(1)
	asserted.any.Store(true)
	errorStandIns.Lock()
	errorStandIns.byImpl = nil
	errorStandIns.Unlock()
}

// Implements returns the names of the asserted interfaces dyn implements
// and static does not (static: the interface type of the slot the value is
// in; nil for none), sorted.
func Implements(static, dyn reflect.Type) []string {
	if !asserted.any.Load() {
		return nil
	}
	k := implKey{static, dyn}
	if v, ok := implCache.Load(k); ok {
		return v.([]string)
	}
	asserted.RLock()
	var out []string
	for _, a := range asserted.list {
		if dyn.Implements(a) && (static == nil || !static.Implements(a)) {
			out = append(out, TypeName(a))
		}
	}
	asserted.RUnlock()
	implCache.Store(k, out)
	return out
}

// appendImplements writes the TagImplements prefix for a value of dynamic
// type dyn in a slot of interface type static whose recorded dynamic type
// name replay cannot look up.
func (e *Encoder) appendImplements(static, dyn reflect.Type, name string) {
	if !asserted.any.Load() {
		return
	}
	e.appendImplNames(implementsPrefix(static, dyn, name))
}

// implementsPrefix returns the names appendImplements writes (nil: none).
func implementsPrefix(static, dyn reflect.Type, name string) []string {
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
		return nil
	}
	rebuilt := p.rebuilt
	if name != TypeName(dyn) {
		// A replay placeholder re-encoded under its recorded name.
		rt, found := LookupType(name)
		rebuilt = found && rt.Kind() != reflect.Interface
	}
	if rebuilt {
		return nil
	}
	return p.impl
}

// appendImplementsOf is appendImplements for a value recorded under its
// dynamic type's own name, dpl's: the answer for the last static type asked
// is cached in the plan (a sync.Map lookup hashes both types).
func (e *Encoder) appendImplementsOf(static reflect.Type, dpl *encPlan) {
	if !asserted.any.Load() {
		return
	}
	gen := prefixGen.Load()
	if c := dpl.impl.Load(); c != nil && c.static == static && c.gen == gen {
		e.appendImplNames(c.names)
		return
	}
	names := implementsPrefix(static, dpl.t, dpl.name)
	dpl.impl.Store(&implCached{static: static, gen: gen, names: names})
	e.appendImplNames(names)
}

// implCached is what appendImplementsOf writes for one static type.
type implCached struct {
	static reflect.Type
	gen    uint64   // prefixGen when it was made
	names  []string // nil: no prefix
}

// prefixGen counts the registrations that change appendImplements' answers
// (after they are made): an answer cached in generation g holds while
// prefixGen is g.
var prefixGen atomic.Uint64

// prefixCache: (static, dynamic) type pair -> what appendImplements writes
// for a value recorded under the dynamic type's own name.
var prefixCache sync.Map

type implPrefix struct {
	impl    []string
	rebuilt bool // the dynamic type is registered: no prefix
}

// appendImplNames writes a TagImplements prefix (errors: replay always
// stands in for TagError values, registered type or not).
func (e *Encoder) appendImplNames(impl []string) {
	if len(impl) == 0 {
		return
	}
	e.Buf = append(e.Buf, TagImplements)
	e.Buf = binary.AppendUvarint(e.Buf, uint64(len(impl)))
	for _, n := range impl {
		e.Buf = appendName(e.Buf, n)
	}
}

// An ImplResolver makes placeholders that implement, besides their static
// interface type t, the asserted interfaces named in impl (replay).
// Resolvers without it stand in with plain placeholders.
type ImplResolver interface {
	RefImpl(id uint64, name string, t reflect.Type, impl []string) (reflect.Value, error)
	StandImpl(name string, raw []byte, t reflect.Type, impl []string) (reflect.Value, error)
}

func (d *Decoder) ref(id uint64, name string, t reflect.Type, impl []string) (reflect.Value, error) {
	if ir, ok := d.Resolver.(ImplResolver); ok && len(impl) > 0 {
		return ir.RefImpl(id, name, t, impl)
	}
	return d.Resolver.Ref(id, name, t)
}

func (d *Decoder) stand(name string, raw []byte, t reflect.Type, impl []string) (reflect.Value, error) {
	if ir, ok := d.Resolver.(ImplResolver); ok && len(impl) > 0 {
		return ir.StandImpl(name, raw, t, impl)
	}
	return d.Resolver.Stand(name, raw, t)
}

var errorStandIns struct {
	sync.RWMutex
	makers []func(*Error) error
	byImpl map[string]func(*Error) error // joined impl names -> maker
}

// RegisterErrorStandIn registers a maker of stand-ins for recorded errors
// that wrap the *Error and add methods (generated per combination of
// asserted interfaces).
func RegisterErrorStandIn(mk func(*Error) error) {
	errorStandIns.Lock()
	errorStandIns.makers = append(errorStandIns.makers, mk)
	errorStandIns.byImpl = nil
	errorStandIns.Unlock()
}

// errorStandIn wraps e in a registered stand-in implementing exactly impl
// beyond error; if there is none, a stand-in of the kind the capture's
// error had: a pointer for a pointer type (e itself), a value otherwise
// (errorValue), so that code following pointers by reflection (spf13/cast's
// indirect, which stops at the first value that is no pointer) stops where
// it did in the capture (TestErrorStandInKeepsPointerness).
func errorStandIn(e *Error) error {
	if len(e.Impl) == 0 {
		ptr := strings.HasPrefix(e.Type, "*")
		switch {
		case len(e.Wrapped) == 1 && ptr:
			return &wrapOne{e: e}
		case len(e.Wrapped) == 1:
			return wrapOne{e: e}
		case ptr:
			return e
		}
		return errorValue{e: e}
	}
	key := joinNames(e.Impl)
	errorStandIns.RLock()
	m := errorStandIns.byImpl
	errorStandIns.RUnlock()
	if m == nil {
		errorStandIns.Lock()
		m = map[string]func(*Error) error{}
		for _, mk := range errorStandIns.makers {
			m[joinNames(Implements(errorType, reflect.TypeOf(mk(&Error{}))))] = mk
		}
		errorStandIns.byImpl = m
		errorStandIns.Unlock()
	}
	if mk := m[key]; mk != nil {
		return mk(e)
	}
	return e
}

func joinNames(ns []string) string {
	n := 0
	for _, s := range ns {
		n += len(s) + 1
	}
	b := make([]byte, 0, n)
	for _, s := range ns {
		b = append(b, s...)
		b = append(b, 0)
	}
	return string(b)
}

// JoinImplements is the key of an implements set (sorted names).
func JoinImplements(ns []string) string { return joinNames(ns) }

// wrapOne stands in for a recorded error that wrapped one error: it has
// Unwrap() error, as the capture's error almost always had (fmt.Errorf
// with one %w, pkg/errors' wrappers), so that errors.Unwrap, which follows
// only that method, answers as in the capture. The encoding does not say
// which Unwrap the error had: an Unwrap() []error of one error
// (errors.Join of one) is replayed as this one (docs/limitations.md).
type wrapOne struct {
	e *Error
	_ uintptr // held through a box, as errorValue is
}

func (w wrapOne) Error() string        { return w.e.Msg }
func (w wrapOne) Unwrap() error        { return w.e.Wrapped[0] }
func (w wrapOne) Is(target error) bool { return w.e.Is(target) }
func (w wrapOne) recorded() *Error     { return w.e }

// errorValue stands in for a recorded error whose type is not a pointer
// (a struct or a named string of a test file, `type fu struct{...}` with
// a value receiver): the same methods as *Error, on a value. It is two
// words, so that an interface holds it through a pointer to a box, as it
// holds such errors (an int, a string, a struct of more than one word),
// not in its data word: code that takes the address of the value inside
// an interface through unsafe (go-spew's unsafeReflectValue, then
// v.Addr()) reads the stand-in there, where a one-pointer struct would be
// read as the memory it points to (a replay crash, "out of memory" on a
// string made of other bytes).
type errorValue struct {
	e *Error
	_ uintptr
}

func (v errorValue) Error() string        { return v.e.Msg }
func (v errorValue) Unwrap() []error      { return v.e.Wrapped }
func (v errorValue) Is(target error) bool { return v.e.Is(target) }
func (v errorValue) recorded() *Error     { return v.e }

// An errorStandInType is a replay stand-in for a recorded error: *Error
// itself or a generated wrapper of it that adds methods (the method is
// unexported, so only embedding *Error provides it).
type errorStandInType interface{ recorded() *Error }

// recorded returns e: wrappers that embed *Error are encoded as the error
// they stand in for.
func (e *Error) recorded() *Error { return e }

// StripImplements returns b, one or more encoded values, without their
// TagImplements prefixes. What a prefix lists follows from the slot's
// static type, the dynamic type the value names and which types the binary
// registered; a type declared in a test file is registered in replay's
// build (which links the test files) and not in the capture's, so the
// capture wrote a prefix replay does not (chi's test doubles in an
// http.ResponseWriter). Replay compares values without them where they
// differ only there (TestStripImplements).
func StripImplements(b []byte) ([]byte, error) {
	var spans [][2]int
	d := &Decoder{Buf: b, implSpan: func(start, end int) { spans = append(spans, [2]int{start, end}) }}
	for d.Off < len(b) && d.Err == nil {
		d.Skip()
	}
	if d.Err != nil {
		return b, d.Err
	}
	return cutSpans(b, spans), nil
}
