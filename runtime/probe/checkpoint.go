package probe

import (
	"fmt"
	"os"
	"reflect"
	"runtime"
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

// checkpointFormat is the version of a CHECKPOINT event's Values layout.
const checkpointFormat = 1

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
// larger type, for checkpoints (o.mu held).
func (o *objects) noteType(p unsafe.Pointer, v reflect.Value) {
	if o.types != nil && v.Kind() == reflect.Pointer {
		o.types[uintptr(p)] = v.Type()
	}
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
		vals, reason = encodeCheckpoint()
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
	if lockNumbers.Load() > 0 {
		return "locks of the observed set have turn counters (LOCK_TURN), which a checkpoint does not carry"
	}
	if turnChans.next.Load() > 0 {
		return "channels of the observed set have turn counters (CHAN_TURN), which a checkpoint does not carry"
	}
	watchedSlices.mu.Lock()
	nslices := len(watchedSlices.list)
	watchedSlices.mu.Unlock()
	if nslices > 0 {
		return fmt.Sprintf("%d slice(s) that incalls returned are watched for the caller's writes (WRITE_IN into a result), which a checkpoint does not carry", nslices)
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
	// init is, for a variable of function or channel type, its value
	// after the package's initialisation: while it holds that value, and a
	// channel is empty, replay's initialisation made the same one, which a
	// checkpoint need not (and for function values cannot) rebuild.
	init unsafe.Pointer
}

// asInit reports whether v (of function or channel type) still holds the
// value it had after initialisation, and an empty channel.
func (v *StateVarRef) asInit() bool {
	k := v.t.Kind()
	if k != reflect.Func && k != reflect.Chan {
		return false
	}
	cur := *(*unsafe.Pointer)(v.p)
	if cur != v.init {
		return false
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
		if k := v.t.Kind(); k == reflect.Func || k == reflect.Chan {
			v.init = *(*unsafe.Pointer)(v.p)
		}
		stateVars.list = append(stateVars.list, v)
		stateVars.byName[v.name] = v
	}
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
}

func (c *ckptObjects) ID(v reflect.Value, name string, _ bool) (uint64, bool, string) {
	p := v.UnsafePointer()
	id, known := captureObjects.knownLocked(p)
	if v.Kind() == reflect.Pointer && value.IsObservedType(v.Type().Elem()) {
		if !known {
			if id = c.local[p]; id == 0 {
				id = localIDs + uint64(len(c.local)) + 1
				c.local[p] = id
			}
		}
		first := !c.seen[p]
		c.seen[p] = true
		return id, first, name
	}
	// Written as a reference: replay makes a placeholder, which is right
	// only for what crossed the boundary (its every use by observed code
	// is an event).
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

func (c *ckptObjects) Recorded(unsafe.Pointer) (string, []byte, bool) { return "", nil, false }

// encodeCheckpoint encodes the observed set's state (ckpt.mu held), or says
// why it cannot. Layout (value encodings): the checkpoint format, the seq
// of the last initialisation event, the object table's next ID, the
// variables (count, then each: name, whether it holds its value after
// initialisation (asInit), and if not the value), the live observed
// objects the table numbers (count, then each as an interface value).
func encodeCheckpoint() ([]byte, string) {
	o := captureObjects
	o.mu.Lock()
	defer o.mu.Unlock()
	objs := &ckptObjects{seen: map[unsafe.Pointer]bool{}, local: map[unsafe.Pointer]uint64{}}
	enc := value.Encoder{Objects: objs}
	enc.Buf = value.AppendUint(enc.Buf, checkpointFormat)
	enc.Buf = value.AppendUint(enc.Buf, ckpt.initEnd)
	enc.Buf = value.AppendUint(enc.Buf, o.next)
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
		obj any
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
			return nil, "the observed state holds an object of type " + value.TypeName(t) + ", which replay cannot make by name (a generic type's instantiation)"
		}
		lives = append(lives, live{sl.e.id, reflect.NewAt(t.Elem(), unsafe.Pointer(p)).Interface()})
	}
	sort.Slice(lives, func(i, j int) bool { return lives[i].id < lives[j].id })
	enc.Buf = value.AppendUint(enc.Buf, uint64(len(lives)))
	for i := range lives {
		enc.EncodeValue(reflect.ValueOf(&lives[i].obj).Elem())
	}
	if objs.refused != "" {
		return nil, objs.refused
	}
	return enc.Buf, ""
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
