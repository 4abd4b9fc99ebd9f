package value

import (
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// The registry holds what the transform tells the runtime about the program:
// the observed packages, the types replay may have to rebuild by name, and the
// sentinel errors whose identity observed code tests. Generated code fills it
// during package initialisation; afterwards it is only read.
var registry = struct {
	sync.RWMutex
	observed map[string]bool
	own      map[reflect.Type]bool // types declared by observed packages
	types    map[string]reflect.Type
	byName   map[string]error // name -> sentinel value
	values   map[string]any   // name -> sentinel value of another kind (RegisterSentinelValue)
}{
	observed: map[string]bool{},
	own:      map[reflect.Type]bool{},
	types:    map[string]reflect.Type{},
	byName:   map[string]error{},
	values:   map[string]any{},
}

// Read on every encoded value, from every goroutine that crosses the
// boundary: sync.Maps, whose loads take no lock once registration is over.
var (
	sentinels sync.Map // sentinel value (comparable) -> name
	// valueSentinels: values of RegisterSentinelValue -> name.
	valueSentinels sync.Map
	observedTypes  sync.Map // reflect.Type -> IsObservedType's answer; cleared by the registrations it depends on
	// observedGen counts the registrations IsObservedType depends on (under
	// registry's write lock): its answers in recentObserved hold only for
	// the generation they were made in.
	observedGen atomic.Uint64
)

// ObservePackage marks an import path as part of the observed set.
func ObservePackage(path string) {
	registry.Lock()
	registry.observed[path] = true
	observedTypes.Clear()
	observedGen.Add(1)
	registry.Unlock()
}

// IsObservedPackage reports whether path is in the observed set.
func IsObservedPackage(path string) bool {
	registry.RLock()
	defer registry.RUnlock()
	return registry.observed[path]
}

// RegisterType makes t (and, for a pointer type, its element) known by
// name, so that replay can rebuild values of that dynamic type.
func RegisterType(t reflect.Type) {
	// A registered named type is named by its plain name (ambiguous), which
	// TypeName may have answered otherwise before.
	k, ek := registeredName(t), ""
	if t.Kind() == reflect.Pointer {
		ek = registeredName(t.Elem())
	}
	registry.Lock()
	registry.types[k] = t
	if t.Kind() == reflect.Pointer {
		registry.types[ek] = t.Elem()
	}
	registry.Unlock()
	registeredTypes.Store(t, true)
	forgetTypeName(t)
	if t.Kind() == reflect.Pointer {
		registeredTypes.Store(t.Elem(), true)
		forgetTypeName(t.Elem())
	}
	prefixCache.Clear() // it remembers which types are registered
	prefixGen.Add(1)
}

// LookupType returns the registered type with the given name.
func LookupType(name string) (reflect.Type, bool) {
	registry.RLock()
	t, ok := registry.types[name]
	registry.RUnlock()
	if !ok {
		return compositeType(name)
	}
	return t, ok
}

// basicTypes are the predeclared types by name.
var basicTypes = func() map[string]reflect.Type {
	m := map[string]reflect.Type{}
	for _, v := range []any{false, 0, int8(0), int16(0), int32(0), int64(0), uint(0), uint8(0), uint16(0), uint32(0),
		uint64(0), uintptr(0), float32(0), float64(0), complex64(0), complex128(0), ""} {
		m[reflect.TypeOf(v).Name()] = reflect.TypeOf(v)
	}
	return m
}()

// compositeType makes the unnamed type a log names from the registered
// types it is made of: "*T", "[]T", "[N]T", "map[K]V", "interface {}",
// and the empty struct "struct {}" (a set's map[K]struct{}), which has no
// field whose package could make two of it differ. Values from outside
// that observed code reflects over come in any of them (a
// map[string]interface {} handed to an encoder), and replay rebuilds them
// with their own dynamic type, which need not be registered itself. Other
// struct, func and channel literals are not rebuilt here (LinkedType makes
// them for values replay knows are reflected over).
func compositeType(name string) (reflect.Type, bool) {
	return compositeTypeOf(name, LookupType)
}

// compositeTypeOf is compositeType with the types it is made of looked up
// by lookup.
func compositeTypeOf(name string, lookup func(string) (reflect.Type, bool)) (reflect.Type, bool) {
	if t, ok := basicTypes[name]; ok {
		return t, true
	}
	switch {
	case name == "interface {}":
		return reflect.TypeFor[any](), true
	case name == "struct {}":
		return reflect.TypeFor[struct{}](), true
	case strings.HasPrefix(name, "*"):
		if e, ok := lookup(name[1:]); ok {
			return reflect.PointerTo(e), true
		}
	case strings.HasPrefix(name, "[]"):
		if e, ok := lookup(name[2:]); ok {
			return reflect.SliceOf(e), true
		}
	case strings.HasPrefix(name, "["):
		i := strings.IndexByte(name, ']')
		n, err := strconv.Atoi(name[1:max(i, 1)])
		if i < 0 || err != nil || n < 0 || strconv.Itoa(n) != name[1:i] {
			return nil, false
		}
		if e, ok := lookup(name[i+1:]); ok {
			return reflect.ArrayOf(n, e), true
		}
	case strings.HasPrefix(name, "map["):
		// The key ends at the bracket that closes "map[".
		depth := 0
		for i := len("map"); i < len(name); i++ {
			switch name[i] {
			case '[':
				depth++
			case ']':
				depth--
			}
			if depth == 0 {
				k, ok := lookup(name[len("map["):i])
				if !ok || !k.Comparable() {
					return nil, false
				}
				if v, ok := lookup(name[i+1:]); ok {
					return reflect.MapOf(k, v), true
				}
				return nil, false
			}
		}
	}
	return nil, false
}

// RegisterSentinel records an exported package-level error variable, e.g.
// ("io.EOF", io.EOF): errors identical to it are encoded by name and replay
// answers with the variable's value, so == and errors.Is keep working.
func RegisterSentinel(name string, err error) {
	if err == nil || !reflect.TypeOf(err).Comparable() {
		return
	}
	registry.Lock()
	sentinels.LoadOrStore(err, name) // the first name stays
	sentinelTypes.Store(reflect.TypeOf(err), true)
	registry.byName[name] = err
	registry.Unlock()
	sentinelGen.Add(1)
}

// sentinelTypes: the dynamic types of registered sentinels
// (reflect.Type -> true); sentinelGen counts RegisterSentinel calls (after
// they are made), for the answers plans cache (encPlan.sentinelType).
var (
	sentinelTypes sync.Map
	sentinelGen   atomic.Uint64
)

// RegisterSentinelValue records an exported package-level variable of
// another package whose value replay could not otherwise rebuild, e.g.
// ("net/http.NoBody", http.NoBody): a value of an unexported type (noBody)
// that reaches observed code inside an object it records (the Body of a
// reflected *http.Request). Replay cannot name such a type, so without
// the variable the value became a stand-in or ended the replay, and the
// code that compares it with the variable (net/http's req.Body ==
// NoBody) took another branch. A value identical to a registered one, in
// an interface slot, is encoded by the variable's name (TagSentinel), and
// replay answers with the variable's value: the same value, the same
// identity. The value the variable holds when it is registered (during
// the observed packages' initialisation, in capture and in replay alike)
// is the one named.
//
// Registered are values of unexported types no registration names, and
// non-nil pointers to such types (http.ServerContextKey, whose identity is
// the variable's, as a sentinel error's is). Not registered: errors,
// which are sentinels only where observed code compares them
// (RegisterSentinel), so that recorded errors keep their messages; maps,
// channels, functions and pointers to types replay can name, which are
// objects with IDs and contents; values of types whose comparison can
// panic (interface fields); values of types replay can name (exported or
// registered: rebuilt by value).
func RegisterSentinelValue(name string, v any) {
	if v == nil {
		return
	}
	t := reflect.TypeOf(v)
	if _, isErr := v.(error); isErr {
		return
	}
	if t.Kind() == reflect.Pointer {
		// A pointer to a type replay cannot name (http.ServerContextKey, a
		// *contextKey, the key of a context value every server's request
		// holds): its identity is the variable's, as a sentinel error's.
		if reflect.ValueOf(v).IsNil() || !unnameable(t.Elem()) {
			return
		}
	} else if !safeComparable(t) || !unnameable(t) {
		return
	}
	registry.Lock()
	if _, dup := registry.values[name]; dup {
		registry.Unlock()
		return
	}
	valueSentinels.LoadOrStore(v, name) // the first name stays
	sentinelTypes.Store(t, true)
	registry.values[name] = v
	registry.Unlock()
	sentinelGen.Add(1)
}

// safeComparable: values of t can be compared (and hashed as map keys)
// without a panic: no interface inside, which may hold an incomparable
// dynamic value, and no kind with an identity of its own.
func safeComparable(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		return true
	case reflect.Array:
		return safeComparable(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if !safeComparable(t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return false
}

// unnameable: t is a named type that generated code cannot spell and
// registration cannot make known by name (an unexported type of its
// package), so that replay cannot rebuild a value of it from its fields.
func unnameable(t reflect.Type) bool {
	if t.Name() == "" || t.PkgPath() == "" || exportedName(t.Name()) {
		return false
	}
	_, known := LookupType(TypeName(t))
	return !known
}

func exportedName(n string) bool {
	r, _ := utf8.DecodeRuneInString(n)
	return unicode.IsUpper(r)
}

// valueSentinelName returns the name of the registered variable whose
// value x is (RegisterSentinelValue).
func valueSentinelName(x any) (string, bool) {
	if t := reflect.TypeOf(x); t.Kind() != reflect.Pointer && !safeComparable(t) {
		return "", false
	}
	n, ok := valueSentinels.Load(x)
	if !ok {
		return "", false
	}
	return n.(string), true
}

// valueSentinelByName returns the value of a variable RegisterSentinelValue
// registered.
func valueSentinelByName(name string) (any, bool) {
	registry.RLock()
	v, ok := registry.values[name]
	registry.RUnlock()
	return v, ok
}

func sentinelName(err error) (string, bool) {
	if !reflect.TypeOf(err).Comparable() {
		return "", false
	}
	n, ok := sentinels.Load(err)
	if !ok {
		return "", false
	}
	return n.(string), true
}

func sentinelByName(name string) (error, bool) {
	registry.RLock()
	e, ok := registry.byName[name]
	registry.RUnlock()
	return e, ok
}

// IsObservedType reports whether t is a named type declared in an observed
// package.
//
// The observed types are the ones the transform registered with
// RegisterOwnType: types an observed package's _test.go files declare are
// test code, external to the set. Instantiations of the packages' generic
// types count by package.
func IsObservedType(t reflect.Type) bool {
	// Every pointer encoded asks about its element type: recent answers by
	// the address of the type's descriptor first (as TypeName), then the
	// sync.Map, whose lookup hashes an interface.
	slot := &recentObserved[typeSlot(t, len(recentObserved))]
	r := slot.Load()
	if r != nil && r.t == t && r.gen == observedGen.Load() {
		return r.observed
	}
	obs, gen := isObservedType(t)
	if r == nil || r.t == t || r.gen != gen { // no churn on collisions within a generation
		slot.Store(&recentObservedType{t, gen, obs})
	}
	return obs
}

// recentObserved caches IsObservedType's answers in front of observedTypes.
var recentObserved [256]atomic.Pointer[recentObservedType]

type recentObservedType struct {
	t        reflect.Type
	gen      uint64 // observedGen when the answer was made
	observed bool
}

// isObservedType is IsObservedType through observedTypes, and the
// registrations' generation the answer holds for.
func isObservedType(t reflect.Type) (observed bool, gen uint64) {
	// A registration clears observedTypes, then counts: an answer found with
	// the count unchanged around it was made in that generation.
	gen = observedGen.Load()
	if v, ok := observedTypes.Load(t); ok && observedGen.Load() == gen {
		return v.(bool), gen
	}
	// Under the read lock, so that a registration cannot come between the
	// answer, its generation and its caching.
	registry.RLock()
	defer registry.RUnlock()
	gen = observedGen.Load()
	obs := isObservedTypeLocked(t)
	observedTypes.Store(t, obs)
	return obs, gen
}

func isObservedTypeLocked(t reflect.Type) bool {
	if t.Name() == "" || t.PkgPath() == "" {
		return false
	}
	if registry.own[t] {
		return true
	}
	return strings.Contains(t.Name(), "[") && !strings.HasPrefix(t.Name(), PlaceholderPrefix) && registry.observed[t.PkgPath()]
}

// IsOwnTypeName reports whether the observed package pkg itself (not its
// tests) declares the type named name: a type RegisterOwnType recorded, or
// an instantiation of a generic type (name with "[", as a symbol spells it:
// G[...]), which counts as the package's as in IsObservedType.
func IsOwnTypeName(pkg, name string) bool {
	registry.RLock()
	defer registry.RUnlock()
	if !registry.observed[pkg] {
		return false
	}
	if strings.Contains(name, "[") {
		return true
	}
	for t := range registry.own {
		if t.Name() == name && t.PkgPath() == pkg {
			return true
		}
	}
	return false
}

// RegisterOwnType records t as a type declared by an observed package (not
// by its tests) and makes it known by name.
func RegisterOwnType(t reflect.Type) {
	RegisterType(t)
	registry.Lock()
	registry.own[t] = true
	observedTypes.Clear()
	observedGen.Add(1)
	registry.Unlock()
}

// PlaceholderPrefix starts the names of the placeholder types the transform
// generates: they live in observed packages but stand in for external values.
const PlaceholderPrefix = "_capture_ph"

// sentinelsMatchedBy lists the registered sentinels that err matches
// through its own Is method (not through its chain).
func sentinelsMatchedBy(err error) []string {
	m, ok := err.(interface{ Is(error) bool })
	if !ok {
		return nil
	}
	registry.RLock()
	defer registry.RUnlock()
	var out []string
	for name, s := range registry.byName {
		if s != err && m.Is(s) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

var typeNames sync.Map // reflect.Type -> string

// TypeName is the name a log uses for t: like reflect's Type.String but with
// full import paths, e.g. "*io/fs.PathError", "[]example.com/a.Item".
func TypeName(t reflect.Type) string {
	if t == nil {
		return "nil"
	}
	i := typeSlot(t, len(recentNames))
	if r := recentNames[i].Load(); r != nil && r.t == t {
		return r.name
	}
	if r := recentNames[i^1].Load(); r != nil && r.t == t {
		return r.name
	}
	var n string
	if c, ok := typeNames.Load(t); ok {
		n = c.(string)
	} else {
		n = internName(typeName(t))
		if c, loaded := typeNames.LoadOrStore(t, n); loaded {
			n = c.(string)
		}
	}
	// The first types to ask keep the two slots: no churn on collisions.
	r := &recentName{t, n}
	if !recentNames[i].CompareAndSwap(nil, r) {
		recentNames[i^1].CompareAndSwap(nil, r)
	}
	return n
}

// typeSlot is the slot of t in a table of n (a power of two) entries
// indexed by the address of t's descriptor. Descriptors are at least 32
// bytes apart; nearby ones (the types of one package) get nearby slots,
// which share cache lines: in place, where the table is cold between two
// events, that is fewer misses than a hash that spreads them.
func typeSlot(t reflect.Type, n int) int {
	return int(typeAddr(t)>>5) & (n - 1)
}

// typeAddr is the address of t's type descriptor (the data word of the
// reflect.Type interface): the key of the small caches in front of the
// sync.Maps keyed by reflect.Type.
func typeAddr(t reflect.Type) uintptr {
	return uintptr((*[2]unsafe.Pointer)(unsafe.Pointer(&t))[1])
}

// recentNames caches TypeName's answers in front of typeNames by the
// address of the type's descriptor, two ways: encoding asks for the names
// of the same few types all the time, and a sync.Map lookup hashes an
// interface.
var recentNames [1024]atomic.Pointer[recentName]

type recentName struct {
	t    reflect.Type
	name string
}

// internName copies a new type name into the current chunk of names: the
// names encodings copy sit together on few pages and lines rather than
// among the program's other allocations (in place, between two events,
// they are cold). Names are never freed.
func internName(n string) string {
	if n == "" || len(n) > 256 {
		return n
	}
	names.Lock()
	defer names.Unlock()
	if cap(names.chunk)-len(names.chunk) < len(n) {
		names.chunk = make([]byte, 0, 8192)
	}
	start := len(names.chunk)
	names.chunk = append(names.chunk, n...)
	return unsafe.String(&names.chunk[start], len(n))
}

// names holds the chunk internName copies names into; the bytes before its
// length are immutable.
var names struct {
	sync.Mutex
	chunk []byte
}

func typeName(t reflect.Type) string {
	if t.Name() != "" {
		if t.PkgPath() == "" {
			return t.Name()
		}
		// reflect's Name of an instantiated generic type spells its type
		// arguments with package names only; keep it, qualified by the path.
		if ambiguous(t) {
			// Another type of the binary has this name (localtypes.go).
			return t.PkgPath() + "." + t.Name() + fingerprintSep + fingerprint(t)
		}
		return t.PkgPath() + "." + t.Name()
	}
	switch t.Kind() {
	case reflect.Pointer:
		return "*" + TypeName(t.Elem())
	case reflect.Slice:
		return "[]" + TypeName(t.Elem())
	case reflect.Array:
		return "[" + strconv.Itoa(t.Len()) + "]" + TypeName(t.Elem())
	case reflect.Map:
		return "map[" + TypeName(t.Key()) + "]" + TypeName(t.Elem())
	case reflect.Chan:
		switch t.ChanDir() {
		case reflect.RecvDir:
			return "<-chan " + TypeName(t.Elem())
		case reflect.SendDir:
			return "chan<- " + TypeName(t.Elem())
		}
		return "chan " + TypeName(t.Elem())
	case reflect.Struct:
		if n, ok := structLiteralName(t); ok {
			return n
		}
	}
	return t.String()
}

// registeredName is the name RegisterType files t under: its plain name
// (no fingerprint), with full import paths.
func registeredName(t reflect.Type) string {
	if t.Name() != "" && t.PkgPath() != "" {
		return t.PkgPath() + "." + t.Name()
	}
	if t.Kind() == reflect.Pointer && t.Elem().Name() != "" && t.Elem().PkgPath() != "" {
		return "*" + registeredName(t.Elem())
	}
	return TypeName(t)
}
