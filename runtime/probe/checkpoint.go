package probe

import (
	"fmt"
	"os"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"unsafe"
	"weak"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/probectl"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// Checkpoints (docs/design/checkpoints.md).
//
// A quiescent point is the return (RETURN_IN) of a top-level incall after
// which no incall is in progress on any stream, package initialisation is
// over, and no goroutine started by observed code is alive. There, every
// piece of the observed set's state that a later event can reach is in its
// package variables and in the objects the object table numbers, and no
// goroutine of the set can change it. With CAPTURE_CHECKPOINT_EVERY=N the
// recorder writes, at every N-th quiescent point, a CHECKPOINT event
// holding that state, or a NO_CHECKPOINT event saying why it could not.
// Replay of a segment (a log cut at a checkpoint: capture cut) restores the
// state and plays the events after it (checkpoint_replay.go).

// EnvCheckpointEvery is the environment variable that turns checkpoints on
// in a capture build: a checkpoint at every N-th quiescent point (1: every
// one). Unset or 0: none, and the probes cost nothing for them.
const EnvCheckpointEvery = probectl.EnvCheckpointEvery

// checkpointFormat is the version of a CHECKPOINT event's Values layout
// written: 2 writes each live object by its type's name and a pointer of
// that type (an interface value, format 1, writes an error type's object
// by value, without its ID), and ends with the contents behind crossed
// pointers to data (dataPointee). Replay reads 1 and 2.
const checkpointFormat = 2

// localIDs is the first of the IDs a checkpoint gives objects of the
// observed set that no event numbered (reached only through its state):
// they name those objects inside the checkpoint alone, far above the IDs
// events use (and above varIDs), and replay forgets them after restoring.
const localIDs = 1 << 48

// ckptOn is set once, before capture starts, when checkpoints are on.
var ckptOn bool

var ckpt struct {
	mu      sync.Mutex
	every   uint64
	open    int64  // top-level incalls in progress, on every stream
	points  uint64 // quiescent points so far
	initEnd uint64 // seq of the last event of package initialisation
	taken   uint64
	refused uint64
}

// liveGo counts goroutines started by observed code that have not ended
// (while checkpoints are on).
var liveGo atomic.Int64

// configureCheckpoints reads EnvCheckpointEvery (capture start).
func configureCheckpoints(getenv func(string) string) {
	v := getenv(EnvCheckpointEvery)
	if v == "" {
		return
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		warnf("%s=%q: want a number of quiescent points (1: every one); checkpoints are off", EnvCheckpointEvery, v)
		return
	}
	if n == 0 {
		return
	}
	ckpt.every = n
	ckptOn = true
	captureObjects.mu.Lock()
	if captureObjects.types == nil {
		captureObjects.types = map[uintptr]reflect.Type{}
	}
	captureObjects.mu.Unlock()
}

// noteType keeps the type of the heap object at p, first seen or seen as a
// larger type, for checkpoints (o.mu held). An observed type seen at the
// address is kept over an external one: an external struct that holds an
// observed one at its start (goldmark's *parser.Delimiter and its
// ast.BaseNode, seen in either order) is written as the observed part, the
// observed set's state, and replay stands in for the rest (a placeholder
// at the part's address, as in a whole log's replay).
func (o *objects) noteType(p unsafe.Pointer, v reflect.Value) {
	if o.types == nil || v.Kind() != reflect.Pointer {
		return
	}
	t := v.Type()
	if old := o.types[uintptr(p)]; old != nil && old != t && old.Kind() == reflect.Pointer && value.IsObservedType(old.Elem()) &&
		(!value.IsObservedType(t.Elem()) || t.Elem().Size() < old.Elem().Size()) {
		return
	}
	o.types[uintptr(p)] = t
}

// notePart is noteType for a sight of the object at p as a smaller type
// than the one it was seen as, which the table's lookup does not see when a
// stream's pins answer it.
func (o *objects) notePart(p unsafe.Pointer, v reflect.Value) {
	o.mu.Lock()
	o.noteType(p, v)
	o.mu.Unlock()
}

// noteInitEnd marks the end of an observed package's initialisation: the
// events so far belong to initialisation, which a segment keeps and replay
// performs before restoring the checkpoint.
func noteInitEnd() {
	if !ckptOn || replaying || rec.w == nil {
		return
	}
	ckpt.mu.Lock()
	ckpt.initEnd = rec.w.LastSeq()
	ckpt.mu.Unlock()
}

// incallBegins counts a top-level incall that starts (capture).
func incallBegins() {
	ckpt.mu.Lock()
	ckpt.open++
	ckpt.mu.Unlock()
}

// incallEnds counts a top-level incall that ended on s; returned is false
// for one that a panic left. When it was the last one in progress, this is
// a quiescent point (if no observed goroutine is alive), and every every-th
// one gets a checkpoint. The lock is held while the checkpoint is taken, so
// no incall starts meanwhile.
func incallEnds(s *Stream, returned bool) {
	ckpt.mu.Lock()
	defer ckpt.mu.Unlock()
	ckpt.open--
	if ckpt.open != 0 || !returned || initializing.Load() || rec.closed.Load() {
		return
	}
	ckpt.points++
	if rot.on {
		rotatePointLocked(s) // rotate.go
		return
	}
	if ckpt.points%ckpt.every != 0 {
		return
	}
	takeCheckpointLocked(s)
}

// takeCheckpointLocked writes a CHECKPOINT event, or a NO_CHECKPOINT event
// with the reason (ckpt.mu held).
func takeCheckpointLocked(s *Stream) {
	reason := checkpointBlocked()
	var vals []byte
	if reason == "" {
		watchedSlices.mu.Lock()
		slices := append([]*watchedSliceMem(nil), watchedSlices.list...)
		maps := append(append([]*watchedMapMem(nil), watchedSlices.maps...), watchedSlices.held...)
		watchedSlices.mu.Unlock()
		vals, reason = encodeCheckpointWith(slices, maps)
		if reason == "" && len(slices)+len(maps) > 0 {
			unwatchSlices(slices, maps)
		}
	}
	e := eventlog.Event{Stream: s.id, Kind: eventlog.KindCheckpoint, Site: "checkpoint", Values: vals}
	if reason != "" {
		e.Kind = eventlog.KindNoCheckpoint
		e.Values = value.AppendString(nil, reason)
		ckpt.refused++
	} else {
		ckpt.taken++
	}
	rec.append(&e)
}

// checkpointBlocked says why the state at this quiescent point cannot be
// checkpointed before looking at it, or "".
func checkpointBlocked() string {
	if n := liveGo.Load(); n > 0 {
		return fmt.Sprintf("%d goroutine(s) started by observed code still running", n)
	}
	if site := livePassed(); site != "" {
		return "a function value of observed code passed to external code (" + site + ") may still be called back, and a checkpoint cannot rebuild it"
	}
	stateVars.Lock()
	defer stateVars.Unlock()
	for _, p := range stateVars.observed {
		if !stateVars.pkgs[p] {
			return "package " + p + " registered no state accessors (transformed by an older rules_capture)"
		}
	}
	return ""
}

// passed holds, while checkpoints are on, the recording wrappers of
// function values of observed code passed to external code (Callback),
// weakly: while external code can still call one back, the callback's
// events would name a function value that replay from a checkpoint never
// passed.
var passed struct {
	sync.Mutex
	list []passedFn
}

type passedFn struct {
	wp   weak.Pointer[byte]
	site string
}

// notePassedWrapper records w, the wrapper of an observed function value passed
// at the outcall being built.
func notePassedWrapper(w reflect.Value, site string) {
	p := ptrOf(w.Interface())
	if p == nil {
		return
	}
	passed.Lock()
	passed.list = append(passed.list, passedFn{weak.Make((*byte)(p)), site})
	passed.Unlock()
}

// livePassed returns the callback site of a passed function value that
// external code may still call, or "". The wrappers of most (a sort.Slice
// comparator) are garbage once their outcall returned; a collection tells
// them from those external code keeps (an HTTP handler, a t.Cleanup).
func livePassed() string {
	passed.Lock()
	defer passed.Unlock()
	prune := func() {
		live := passed.list[:0]
		for _, f := range passed.list {
			if f.wp.Value() != nil {
				live = append(live, f)
			}
		}
		clear(passed.list[len(live):])
		passed.list = live
	}
	prune()
	if len(passed.list) == 0 {
		return ""
	}
	runtime.GC()
	prune()
	if len(passed.list) == 0 {
		return ""
	}
	return passed.list[0].site
}

// A StateVarRef is a package-level variable of an observed package, which
// checkpoints write and restore (generated code registers every one).
type StateVarRef struct {
	name string
	p    unsafe.Pointer
	t    reflect.Type
	// init is, for a variable of function or channel type or a pointer to
	// an external object (initRef), its value after the package's
	// initialisation: while it holds that value, and a channel is empty,
	// replay's initialisation made the same one, which a checkpoint need
	// not (and for function values cannot) rebuild.
	init unsafe.Pointer
}

// initRef reports whether a variable of type t is a pointer to an object
// of a type outside the observed set that replay's initialisation makes
// again (semver's `versionRegex = regexp.MustCompile(...)`): observed
// code uses it through outcalls and READ_OUTs, which replay answers from
// the log without changing it, so replay's own is as good as the
// capture's. Not a pointer to data, whose pointee observed code changes
// without events (dataPointee).
func initRef(t reflect.Type) bool {
	return t.Kind() == reflect.Pointer && !value.IsObservedType(t.Elem()) && !dataPointee(t)
}

// asInit reports whether v (of function or channel type, or initRef)
// still holds the value it had after initialisation, and an empty
// channel. A pointer that crossed the boundary since is not: later events
// name it by the ID the capture gave it, which replay's own object does
// not have (o.mu held).
func (v *StateVarRef) asInit() bool {
	k := v.t.Kind()
	if k != reflect.Func && k != reflect.Chan && !initRef(v.t) {
		return false
	}
	cur := *(*unsafe.Pointer)(v.p)
	if cur != v.init {
		return false
	}
	if k == reflect.Pointer {
		if cur == nil {
			return true
		}
		_, known := captureObjects.knownLocked(cur)
		return !known
	}
	return k == reflect.Func || cur == nil || reflect.NewAt(v.t, v.p).Elem().Len() == 0
}

// StateVar names the package variable at p for StateVars.
func StateVar[T any](name string, p *T) StateVarRef {
	return StateVarRef{name: name, p: unsafe.Pointer(p), t: reflect.TypeFor[T]()}
}

var stateVars struct {
	sync.Mutex
	observed []string        // observed packages (Package)
	pkgs     map[string]bool // those that registered their variables
	list     []StateVarRef
	byName   map[string]StateVarRef
}

// StateVars registers the package variables of observed package pkg (all
// of them, exported or not; generated code calls it at the end of the
// package's initialisation).
func StateVars(pkg string, vars ...StateVarRef) {
	stateVars.Lock()
	defer stateVars.Unlock()
	if stateVars.pkgs == nil {
		stateVars.pkgs = map[string]bool{}
		stateVars.byName = map[string]StateVarRef{}
	}
	if stateVars.pkgs[pkg] {
		return
	}
	stateVars.pkgs[pkg] = true
	for _, v := range vars {
		if k := v.t.Kind(); k == reflect.Func || k == reflect.Chan || initRef(v.t) {
			v.init = *(*unsafe.Pointer)(v.p)
		}
		stateVars.list = append(stateVars.list, v)
		stateVars.byName[v.name] = v
	}
	if ckptOn && !replaying {
		initFuncs.Lock()
		if initFuncs.byCode == nil {
			initFuncs.byCode = map[uintptr]initFunc{}
		}
		walkFuncs(vars, func(f reflect.Value) {
			pc, c := f.Pointer(), closurePointer(f)
			if old, ok := initFuncs.byCode[pc]; ok && old.closure != c {
				// Two function values of one function literal (different
				// captured variables): the name does not tell them apart.
				old.closure = nil
				initFuncs.byCode[pc] = old
				return
			}
			initFuncs.byCode[pc] = initFunc{funcName(pc), c}
		})
		initFuncs.Unlock()
	}
}

// initFuncs holds, in a capture with checkpoints on, the function values
// of observed code that the package variables held right after their
// package's initialisation (in a map or struct: semver's
// `constraintOps map[string]cfunc`), by code pointer. Replay's
// initialisation makes the same ones, so a checkpoint writes such a value
// as a reference to the function's name, which replay finds in its own
// variables after initialisation (initFuncsOf).
var initFuncs struct {
	sync.Mutex
	byCode map[uintptr]initFunc
}

type initFunc struct {
	name    string
	closure unsafe.Pointer // the function value (nil: more than one, ambiguous)
}

// funcName is the symbol name of the function at pc.
func funcName(pc uintptr) string {
	if fn := runtime.FuncForPC(pc); fn != nil {
		return fn.Name()
	}
	return ""
}

// walkFuncs calls f with every non-nil function value of observed code
// that vars hold, through maps, slices, arrays, structs, pointers and
// interfaces (each object once).
func walkFuncs(vars []StateVarRef, f func(reflect.Value)) {
	seen := map[unsafe.Pointer]bool{}
	var walk func(v reflect.Value, depth int)
	walk = func(v reflect.Value, depth int) {
		if depth > 64 {
			return
		}
		switch v.Kind() {
		case reflect.Func:
			if !v.IsNil() && v.CanInterface() && ObservedFunc(v.Interface()) {
				f(v)
			}
		case reflect.Pointer:
			if v.IsNil() || seen[v.UnsafePointer()] {
				return
			}
			seen[v.UnsafePointer()] = true
			walk(v.Elem(), depth+1)
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem(), depth+1)
			}
		case reflect.Map:
			if v.IsNil() || !holdsFuncs(v.Type()) {
				return
			}
			it := v.MapRange()
			for it.Next() {
				walk(it.Key(), depth+1)
				walk(it.Value(), depth+1)
			}
		case reflect.Slice, reflect.Array:
			if !holdsFuncs(v.Type()) {
				return
			}
			for i := range v.Len() {
				walk(v.Index(i), depth+1)
			}
		case reflect.Struct:
			for i := range v.NumField() {
				walk(readableField(v, i), depth+1)
			}
		}
	}
	for _, sv := range vars {
		// Unexported fields are read through an addressable value of
		// the variable's type (reflect.NewAt), not as interface values.
		walk(reflect.NewAt(sv.t, sv.p).Elem(), 0)
	}
}

// holdsFuncs reports whether a value of type t may hold a function value
// (an interface may hold anything).
func holdsFuncs(t reflect.Type) bool {
	return holdsFuncsSeen(t, map[reflect.Type]bool{})
}

func holdsFuncsSeen(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Func, reflect.Interface:
		return true
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return holdsFuncsSeen(t.Elem(), seen)
	case reflect.Map:
		return holdsFuncsSeen(t.Key(), seen) || holdsFuncsSeen(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if holdsFuncsSeen(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}

// notePackage records an observed package, which must register its
// variables (StateVars) for a checkpoint to be taken.
func notePackage(path string) {
	stateVars.Lock()
	stateVars.observed = append(stateVars.observed, path)
	stateVars.Unlock()
}

// ckptObjects is the object table of a checkpoint's encoding: objects the
// capture numbered keep their IDs, observed objects it did not number get
// local ones, and every observed object is written with its contents at
// its first sight in the checkpoint. A reference to something replay could
// not rebuild (an external object or function value that never crossed
// the boundary, a channel) refuses the checkpoint.
type ckptObjects struct {
	seen    map[unsafe.Pointer]bool
	local   map[unsafe.Pointer]uint64
	refused string
	// pointees are the crossed pointers to data of a type outside the
	// observed set (dataPointee) that the state holds, in the order first
	// met; their contents are written after the live objects.
	pointees   []ckptPointee
	pointeeIDs map[uint64]bool
	// funcs are the function values of observed code that the variables
	// held after initialisation (initFuncs), by the local IDs they are
	// written with, and their names.
	funcs   []ckptFunc
	funcIDs map[unsafe.Pointer]uint64
}

type ckptFunc struct {
	id   uint64
	name string
}

type ckptPointee struct {
	id uint64
	v  reflect.Value // the pointer
}

// dataPointee reports whether a crossed pointer of type t, outside the
// observed set, is written with its pointee's contents. Its pointee is
// plain data (a slice, map, array, string, number or pointer: pflag's
// StringSliceVar(&s) keeps the caller's *[]string), which observed code
// reads and writes through it without an event: in a whole run's replay
// the placeholder the reference made holds what the replayed code wrote,
// and replay from a checkpoint must start with what it held. A struct's
// fields are read and written through READ_OUT and WRITE_OUT events and
// its methods are outcalls, so a placeholder answers for it as in any log;
// so does one of a type with methods (pflag's tests' *triStateValue, an
// int), which observed code uses through an interface.
func dataPointee(t reflect.Type) bool {
	if t.Kind() != reflect.Pointer || t.NumMethod() > 0 {
		return false
	}
	switch t.Elem().Kind() {
	case reflect.Struct, reflect.Interface, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return false
	}
	return t.Elem().Size() > 0
}

func (c *ckptObjects) ID(v reflect.Value, name string, _ bool) (uint64, bool, string) {
	p := v.UnsafePointer()
	id, known := captureObjects.knownLocked(p)
	if v.Kind() == reflect.Pointer && value.IsObservedType(v.Type().Elem()) {
		if !known {
			if id = c.local[p]; id == 0 {
				id = localIDs + uint64(len(c.local)+len(c.funcIDs)) + 1
				c.local[p] = id
			}
		}
		first := !c.seen[p]
		c.seen[p] = true
		return id, first, name
	}
	// Written as a reference: replay makes a placeholder, which is right
	// only for what crossed the boundary (its every use by observed code
	// is an event, but for the contents of a pointer to data).
	if known && dataPointee(v.Type()) && !c.pointeeIDs[id] {
		if t := captureObjects.types[uintptr(p)]; t == nil || t.Kind() != reflect.Pointer || !value.IsObservedType(t.Elem()) {
			// (An observed object at the same address, pflag's *int as
			// an *intValue, is written with its contents as a live object.)
			c.pointeeIDs[id] = true
			c.pointees = append(c.pointees, ckptPointee{id, v})
		}
	}
	if c.refused == "" && known && v.Kind() == reflect.Pointer && !dataPointee(v.Type()) && inRebuilt(p) {
		// An object a reflected value brought in (markRebuilt), which the
		// observed code reads natively by reflection: the checkpoint
		// writes a reference, and replay's placeholder for it would not
		// hold what the code reads (mapstructure's Decoder, whose config's
		// Result the next Decode walks).
		c.refused = "the observed state holds " + name + ", an object from outside that observed code reflects over, whose contents a checkpoint does not hold"
	}
	if v.Kind() == reflect.Func && !v.IsNil() && v.CanInterface() && ObservedFunc(v.Interface()) {
		if fid := c.initFunc(v, id, known); fid != 0 {
			return fid, false, name
		}
	}
	if c.refused == "" {
		switch {
		case v.Kind() == reflect.Chan:
			c.refused = "the observed state holds a channel (" + name + "), whose buffer and waiters a checkpoint cannot rebuild"
		case v.Kind() == reflect.Func && v.CanInterface() && ObservedFunc(v.Interface()):
			c.refused = "the observed state holds a function value of observed code (" + name + "), which a checkpoint cannot rebuild"
		case !known:
			c.refused = "the observed state holds " + name + ", which never crossed the boundary: replay could not rebuild it"
		}
	}
	return id, false, name
}

// initFunc returns the ID that function value v of observed code is
// written with when the package variables held it after initialisation
// (the table's, known, or a local one), or 0.
func (c *ckptObjects) initFunc(v reflect.Value, tableID uint64, known bool) uint64 {
	clo := closurePointer(v)
	if id := c.funcIDs[clo]; id != 0 {
		return id
	}
	initFuncs.Lock()
	f, ok := initFuncs.byCode[v.Pointer()]
	initFuncs.Unlock()
	if !ok || f.closure != clo || f.name == "" {
		return 0
	}
	id := localIDs + uint64(len(c.local)+len(c.funcIDs)) + 1
	if known {
		id = tableID
	}
	c.funcIDs[clo] = id
	c.funcs = append(c.funcs, ckptFunc{id, f.name})
	return id
}

func (c *ckptObjects) Recorded(unsafe.Pointer) (string, []byte, bool) { return "", nil, false }

// encodeCheckpoint encodes the observed set's state (ckpt.mu held), or says
// why it cannot. Layout (value encodings): the checkpoint format, the seq
// of the last initialisation event, the object table's next ID, the
// function values of initialisation the state holds (count, then each:
// its local ID, its function's name), the variables (count, then each: name, whether it holds its value after
// initialisation (asInit), and if not the value), the live observed
// objects the table numbers (count, then each: its type's name and a
// pointer of that type), the pointees of the crossed pointers to data the
// state holds (each: true, its ID, the pointee; then false), and the turn
// counters (appendTurnCounts).
func encodeCheckpoint() ([]byte, string) {
	return encodeCheckpointWith(nil, nil)
}

// encodeCheckpointWith is encodeCheckpoint where slices are the watched
// slices (slicewatch.go): it refuses if the state reaches the memory of
// one of them (reachedSlice).
func encodeCheckpointWith(slices []*watchedSliceMem, maps []*watchedMapMem) ([]byte, string) {
	o := captureObjects
	o.mu.Lock()
	defer o.mu.Unlock()
	objs := &ckptObjects{seen: map[unsafe.Pointer]bool{}, local: map[unsafe.Pointer]uint64{},
		pointeeIDs: map[uint64]bool{}, funcIDs: map[unsafe.Pointer]uint64{}}
	enc := value.Encoder{Objects: objs, Unmarked: true}
	stateVars.Lock()
	vars := stateVars.list
	stateVars.Unlock()
	enc.Buf = value.AppendUint(enc.Buf, uint64(len(vars)))
	for i := range vars {
		v := &vars[i]
		enc.Buf = value.AppendString(enc.Buf, v.name)
		same := v.asInit()
		enc.Buf = value.AppendBool(enc.Buf, same)
		if !same {
			enc.EncodeValue(reflect.NewAt(v.t, v.p).Elem())
		}
	}
	type live struct {
		id  uint64
		ptr reflect.Value
	}
	var lives []live
	for i := range o.ids.slots {
		sl := &o.ids.slots[i]
		if sl.addr == 0 {
			continue
		}
		t := o.types[sl.addr]
		if t == nil || t.Kind() != reflect.Pointer || !value.IsObservedType(t.Elem()) {
			continue // references replay makes placeholders for when an event names them
		}
		p := sl.e.wp.Value()
		if p == nil || uintptr(unsafe.Pointer(p)) != sl.addr {
			continue // collected
		}
		if rt, ok := value.LookupType(value.TypeName(t.Elem())); !ok || rt != t.Elem() {
			// Written as an interface value, it is made again by its type's
			// name, which the transform registers for the package's own
			// declared types, not for a generic type's instantiations.
			return nil, "the observed state holds an object of type " + value.TypeName(t) + ", which replay cannot make by name (a generic type's instantiation: the transform registers the package's declared types, and replay meets an instantiation only when the replayed code makes one)"
		}
		lives = append(lives, live{sl.e.id, reflect.NewAt(t.Elem(), unsafe.Pointer(p))})
	}
	sort.Slice(lives, func(i, j int) bool { return lives[i].id < lives[j].id })
	if why := liveReturnedClosure(); why != "" {
		return nil, why // returned.go
	}
	if len(slices)+len(maps) > 0 {
		roots := make([]reflect.Value, 0, len(vars)+len(lives))
		for i := range vars {
			roots = append(roots, reflect.NewAt(vars[i].t, vars[i].p).Elem())
		}
		for i := range lives {
			roots = append(roots, lives[i].ptr)
		}
		if n := reachedSlices(roots, slices, maps); n > 0 {
			return nil, fmt.Sprintf("%d slice(s) or map(s) that incalls returned, watched for the caller's writes (WRITE_IN into a result), or held in a struct they returned, share memory with the observed state, which a checkpoint does not carry", n)
		}
	}
	enc.Buf = value.AppendUint(enc.Buf, uint64(len(lives)))
	for i := range lives {
		// By its type's name and as a pointer, not as an interface value:
		// in an interface, an object of an error type is written by value
		// (TagTypedError), without the ID later events name it by.
		enc.Buf = value.AppendString(enc.Buf, value.TypeName(lives[i].ptr.Type().Elem()))
		enc.EncodeValue(lives[i].ptr)
	}
	// The pointees of crossed pointers to data; writing one may meet more.
	for i := 0; i < len(objs.pointees); i++ {
		pt := objs.pointees[i]
		enc.Buf = value.AppendBool(enc.Buf, true)
		enc.Buf = value.AppendUint(enc.Buf, pt.id)
		enc.EncodeValue(pt.v.Elem())
	}
	enc.Buf = value.AppendBool(enc.Buf, false)
	enc.Buf = appendTurnCounts(enc.Buf)
	if objs.refused != "" {
		return nil, objs.refused
	}
	// The header, and the function values of initialisation that the
	// state names (replay binds them before it decodes the rest).
	b := value.AppendUint(nil, checkpointFormat)
	b = value.AppendUint(b, ckpt.initEnd)
	b = value.AppendUint(b, o.next)
	b = value.AppendUint(b, uint64(len(objs.funcs)))
	for _, f := range objs.funcs {
		b = value.AppendUint(b, f.id)
		b = value.AppendString(b, f.name)
	}
	return append(b, enc.Buf...), ""
}

// CheckpointStats reports the checkpoints this process took and refused.
func CheckpointStats() (taken, refused uint64) {
	ckpt.mu.Lock()
	defer ckpt.mu.Unlock()
	return ckpt.taken, ckpt.refused
}

func init() {
	// Checkpoints are a capture-time setting; replay harnesses read none.
	if buildMode != "replay" {
		configureCheckpoints(os.Getenv)
	}
}

// Watched slices (slicewatch.go) at a checkpoint. A slice an incall
// returned is watched so that replay can write what the caller wrote into
// it into the slice replay's incall returned, which the observed state may
// share (a buffer's array). Where the state the checkpoint writes reaches
// none of the watched slices' memory, observed code can no longer read
// what a caller writes there (a slice passed back in crosses by value), so
// the checkpoint is taken and the recorder stops watching them: no later
// WRITE_IN names an incall before the checkpoint, which a segment's replay
// did not perform. Where the state shares one's memory, the checkpoint is
// refused (it would have to say which part of the restored state the
// caller's writes go to).

// reachedSlices returns how many of slices have memory, and of maps are
// the map, that the values of roots reach: through observed objects, maps, slices, arrays, structs,
// interfaces and the pointees a checkpoint writes (dataPointee); a
// reference to another external object is written as such, and its
// memory is not the observed state's.
func reachedSlices(roots []reflect.Value, slices []*watchedSliceMem, maps []*watchedMapMem) int {
	reached := make([]bool, len(slices))
	n := 0
	mapReached := make([]bool, len(maps))
	mark := func(p, size uintptr) {
		for i, m := range slices {
			lo := uintptr(m.p)
			if !reached[i] && p < lo+m.n && lo < p+size {
				reached[i] = true
				n++
			}
		}
	}
	seen := map[unsafe.Pointer]bool{}
	var walk func(v reflect.Value, depth int)
	walk = func(v reflect.Value, depth int) {
		if depth > 256 || n == len(slices)+len(maps) {
			return
		}
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() {
				return
			}
			p := v.UnsafePointer()
			mark(uintptr(p), max(v.Type().Elem().Size(), 1))
			if seen[p] || !value.IsObservedType(v.Type().Elem()) && !dataPointee(v.Type()) {
				return
			}
			seen[p] = true
			walk(v.Elem(), depth+1)
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem(), depth+1)
			}
		case reflect.Map:
			if v.IsNil() {
				return
			}
			for i, m := range maps {
				if !mapReached[i] && m.m == v.UnsafePointer() {
					mapReached[i] = true
					n++
				}
			}
			it := v.MapRange()
			for it.Next() {
				walk(it.Key(), depth+1)
				walk(it.Value(), depth+1)
			}
		case reflect.Slice:
			if v.IsNil() || v.Cap() == 0 {
				return
			}
			es := v.Type().Elem().Size()
			mark(uintptr(v.UnsafePointer()), max(uintptr(v.Cap())*es, 1))
			if !plainMemory(v.Type().Elem()) {
				for i := range v.Len() {
					walk(v.Index(i), depth+1)
				}
			}
		case reflect.Array:
			if !plainMemory(v.Type().Elem()) {
				for i := range v.Len() {
					walk(v.Index(i), depth+1)
				}
			}
		case reflect.Struct:
			for i := range v.NumField() {
				walk(readableField(v, i), depth+1)
			}
		}
	}
	for _, r := range roots {
		walk(r, 0)
	}
	return n
}

// readableField is the i-th field of struct v; an unexported field of an
// addressable struct is read through its address, so that the walks over
// the observed state see it as well as the exported ones.
func readableField(v reflect.Value, i int) reflect.Value {
	f := v.Field(i)
	if !f.CanInterface() && f.CanAddr() {
		return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
	}
	return f
}

// unwatchSlices stops watching slices (a checkpoint was taken and the
// state reaches none of them).
func unwatchSlices(unwatched []*watchedSliceMem, maps []*watchedMapMem) {
	drop := make(map[*watchedSliceMem]bool, len(unwatched))
	for _, m := range unwatched {
		drop[m] = true
	}
	dropMaps := make(map[*watchedMapMem]bool, len(maps))
	for _, m := range maps {
		dropMaps[m] = true
	}
	dropped := func(m *watchedMapMem) bool { return dropMaps[m] }
	w := &watchedSlices
	w.mu.Lock()
	// DeleteFunc clears the tail: the watches dropped are not kept alive.
	w.maps = slices.DeleteFunc(w.maps, dropped)
	w.held = slices.DeleteFunc(w.held, dropped)
	w.list = slices.DeleteFunc(w.list, func(m *watchedSliceMem) bool { return drop[m] })
	w.mu.Unlock()
}

// appendTurnCounts appends the turn counters of the locks and channels
// that observed code acquired and received from at turn sites and that
// are still alive (lockturn.go, chanturn.go): a count, then each lock's
// number, writes and reads since the last write; a count, then each
// channel's number and receives. Replay of a segment starts its counts
// there, as replay of the whole log would have counted the turns before
// the checkpoint.
func appendTurnCounts(b []byte) []byte {
	type lockCount struct{ num, writes, reads uint64 }
	var locks []lockCount
	for i := range turnLocks {
		sh := &turnLocks[i]
		sh.mu.Lock()
		for _, e := range sh.m {
			if e.wp.Value() != nil { // not collected
				locks = append(locks, lockCount{e.st.id, e.st.writes.Load(), e.st.reads.Load()})
			}
		}
		sh.mu.Unlock()
	}
	sort.Slice(locks, func(i, j int) bool { return locks[i].num < locks[j].num })
	b = value.AppendUint(b, uint64(len(locks)))
	for _, l := range locks {
		b = value.AppendUint(b, l.num)
		b = value.AppendUint(b, l.writes)
		b = value.AppendUint(b, l.reads)
	}
	type chanCount struct{ num, n uint64 }
	var chans []chanCount
	t := &turnChans
	t.mu.Lock()
	var sts []*chanTurns
	for _, e := range t.m {
		if e.wp.Value() != nil {
			sts = append(sts, e.st)
		}
	}
	t.mu.Unlock()
	for _, st := range sts {
		// No receive is in progress at a quiescent point: its goroutine
		// would still be running.
		if st.mu.TryLock() {
			if st.id != 0 {
				chans = append(chans, chanCount{st.id, st.n})
			}
			st.mu.Unlock()
		}
	}
	sort.Slice(chans, func(i, j int) bool { return chans[i].num < chans[j].num })
	b = value.AppendUint(b, uint64(len(chans)))
	for _, c := range chans {
		b = value.AppendUint(b, c.num)
		b = value.AppendUint(b, c.n)
	}
	return b
}

// resetStateVarInit takes the current value of the registered variable
// named name as its value after initialisation: FuncVars replaced an
// exported function variable's value by a recording wrapper, which
// replay's initialisation does not make and a checkpoint need not rebuild.
func resetStateVarInit(name string) {
	stateVars.Lock()
	defer stateVars.Unlock()
	for i := range stateVars.list {
		v := &stateVars.list[i]
		if v.name == name && v.init != nil {
			v.init = *(*unsafe.Pointer)(v.p)
			stateVars.byName[name] = *v
		}
	}
}
