package probe

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// ckptNode is a type of the "observed set" of these tests (registered as
// its own type): unexported fields, and a pointer to another node.
type ckptNode struct {
	n    int
	name string
	next *ckptNode
}

// ckptHolder is an observed type that keeps a pointer the caller passed
// in (pflag's StringSliceVar(&s)): observed code writes and reads its
// pointee without an event.
type ckptHolder struct {
	vals *[]int
	buf  []byte
}

// ckptErr is an observed error type, recorded by value in an interface.
type ckptErr struct{ msg string }

func (e *ckptErr) Error() string { return e.msg }

var (
	ckptCount int
	ckptHead  *ckptNode
	ckptChan  chan int
	ckptHold  *ckptHolder
	// ckptOps holds function values of observed code in a map, filled at
	// initialisation (semver's constraintOps).
	ckptOps map[string]func(int, int) int
	// ckptRepl holds an external object that initialisation made and that
	// never crossed the boundary (semver's versionRegex).
	ckptRepl *strings.Replacer
)

func ckptAdd(a, b int) int { return a + b }
func ckptSub(a, b int) int { return a - b }
func ckptMul(a, b int) int { return a * b }

func ckptInitOps() map[string]func(int, int) int {
	return map[string]func(int, int) int{"+": ckptAdd, "-": ckptSub}
}

// withCheckpoints turns checkpoints on (every quiescent point) with the
// test's package variables registered, captures to a slice, and restores
// the runtime's state afterwards.
func withCheckpoints(t *testing.T) *[]eventlog.Event {
	t.Helper()
	return withCheckpointsB(t)
}

func withCheckpointsB(t testing.TB) *[]eventlog.Event {
	t.Helper()
	value.RegisterOwnType(reflect.TypeFor[ckptNode]())
	value.RegisterOwnType(reflect.TypeFor[ckptHolder]())
	value.RegisterOwnType(reflect.TypeFor[ckptErr]())
	oldOn, oldEvery, oldVars := ckptOn, ckpt.every, stateVars.list
	oldPkgs, oldByName, oldObserved := stateVars.pkgs, stateVars.byName, stateVars.observed
	captureObjects.mu.Lock()
	oldTypes := captureObjects.types
	if captureObjects.types == nil {
		captureObjects.types = map[uintptr]reflect.Type{}
	}
	captureObjects.mu.Unlock()
	ckptOn, ckpt.every = true, 1
	oldInitFuncs := initFuncs.byCode
	initFuncs.byCode = nil
	stateVars.list, stateVars.pkgs, stateVars.byName, stateVars.observed = nil, nil, nil, nil
	notePackage("example.com/ckpt")
	StateVars("example.com/ckpt",
		StateVar("example.com/ckpt.count", &ckptCount),
		StateVar("example.com/ckpt.head", &ckptHead),
		StateVar("example.com/ckpt.ch", &ckptChan),
		StateVar("example.com/ckpt.hold", &ckptHold),
		StateVar("example.com/ckpt.ops", &ckptOps),
		StateVar("example.com/ckpt.repl", &ckptRepl))
	var got []eventlog.Event
	CaptureTo(func(e *eventlog.Event) uint64 {
		c := *e
		c.Values = append([]byte(nil), e.Values...)
		c.Seq = uint64(len(got) + 1)
		got = append(got, c)
		return c.Seq
	})
	t.Cleanup(func() {
		CaptureTo(nil)
		ckptOn, ckpt.every = oldOn, oldEvery
		stateVars.list, stateVars.pkgs, stateVars.byName, stateVars.observed = oldVars, oldPkgs, oldByName, oldObserved
		captureObjects.mu.Lock()
		captureObjects.types = oldTypes
		captureObjects.mu.Unlock()
		ckptCount, ckptHead, ckptChan, ckptHold, ckptOps, ckptRepl = 0, nil, nil, nil, nil, nil
		initFuncs.byCode = oldInitFuncs
	})
	return &got
}

// ckptIncall makes a top-level incall at site that returns r (nil: no
// result).
func ckptIncall(t *testing.T, site *Site, r *ckptNode) {
	t.Helper()
	s := In(site)
	if s == nil {
		t.Fatal("In returned nil with capture on")
	}
	f := s.Call()
	if r != nil {
		Encode(s, r)
	}
	s.Return(f)
}

func lastOf(events []eventlog.Event, kind eventlog.Kind) *eventlog.Event {
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Kind == kind {
			return &events[i]
		}
	}
	return nil
}

// A checkpoint holds the package variables and every live observed object
// the table numbers, with its ID, deeply; an object that never crossed gets
// a local ID. Restoring it into a player sets the variables, binds the
// crossed objects to their IDs as seen before (their next sight is by ID)
// and keeps sharing: the variable and the numbered object are one object.
func TestCheckpointRestoresVariablesAndObjects(t *testing.T) {
	got := withCheckpoints(t)
	site := &Site{Name: "example.com/ckpt.New", Pos: "ckpt/ckpt.go:1"}
	inner := &ckptNode{n: 7, name: "inner"} // reached only through the state
	obj := &ckptNode{n: 1, name: "crossed", next: inner}
	ckptIncall(t, site, obj) // numbers obj
	ckptCount, ckptHead = 3, obj
	obj.n = 2 // changed by observed code after it crossed
	ckptIncall(t, site, nil)
	cp := lastOf(*got, eventlog.KindCheckpoint)
	if cp == nil {
		t.Fatalf("no CHECKPOINT event: %+v", *got)
	}
	if n := len(*got); (*got)[n-1].Kind != eventlog.KindCheckpoint || (*got)[n-2].Kind != eventlog.KindReturnIn {
		t.Fatalf("the checkpoint does not follow the incall's return: %+v", *got)
	}
	text, err := value.Render(cp.Values)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"example.com/ckpt.count", false, 3`, `{2, "crossed", *`, `{7, "inner", nil}`} {
		if !strings.Contains(text, want) {
			t.Errorf("checkpoint %s lacks %s", text, want)
		}
	}
	var objID uint64
	_ = value.ObjectRefs(cp.Values, func(id uint64, name string) {
		if objID == 0 && id < localIDs {
			objID = id
		}
	})
	if objID == 0 || objID >= localIDs {
		t.Fatalf("no table ID in the checkpoint %s", text)
	}

	// Restore into a player, from zero values.
	ckptCount, ckptHead = 0, nil
	p := newPlayer()
	p.seg = &segment{from: cp.Seq, values: cp.Values}
	if r := p.restoreSegment(); r != nil {
		t.Fatalf("restore: %+v", r)
	}
	if ckptCount != 3 || ckptHead == nil || ckptHead.n != 2 || ckptHead.name != "crossed" ||
		ckptHead.next == nil || ckptHead.next.n != 7 || ckptHead.next.name != "inner" {
		t.Fatalf("restored count %d, head %+v", ckptCount, ckptHead)
	}
	bound, ok := p.byID[objID]
	if !ok || bound.Interface() != any(ckptHead) {
		t.Fatalf("object %d bound to %v, want the variable's object %p", objID, bound, ckptHead)
	}
	for id := range p.byID {
		if id >= localIDs {
			t.Errorf("checkpoint-local ID %d still bound after restore", id)
		}
	}
	if id, first, _, ok := p.knownLocked(reflect.ValueOf(ckptHead), "*example.com/ckpt.ckptNode"); !ok || id != objID || first {
		t.Errorf("restored object: id %d, first %v, known %v; want %d, seen before", id, first, ok, objID)
	}
	if _, _, _, ok := p.knownLocked(reflect.ValueOf(ckptHead.next), ""); ok {
		t.Errorf("the object that never crossed has an ID after restore")
	}
}

// A pointer to data that the caller passed in and observed code keeps is
// written as a reference, but replay of a segment must find behind it what
// observed code wrote there before the checkpoint (a whole run's replay
// rebuilds that itself); and an observed object of an error type that a
// caller made keeps its ID (in an interface it would be written by value).
func TestCheckpointCarriesPointeesAndErrorObjects(t *testing.T) {
	got := withCheckpoints(t)
	site := &Site{Name: "example.com/ckpt.Keep", Pos: "ckpt/ckpt.go:3"}
	var callers []int
	errObj := &ckptErr{msg: "bad"}
	s := In(site)
	Encode(s, &callers) // crosses as a reference
	Encode(s, errObj)   // numbered by its first crossing
	f := s.Call()
	ckptHold = &ckptHolder{vals: &callers}
	*ckptHold.vals = append(*ckptHold.vals, 4, 5, 6) // no event
	s.Return(f)
	cp := lastOf(*got, eventlog.KindCheckpoint)
	if cp == nil {
		t.Fatalf("no CHECKPOINT: %+v", *got)
	}
	ids := map[string]uint64{}
	_ = value.ObjectRefs(cp.Values, func(id uint64, name string) {
		if id < localIDs && ids[name] == 0 {
			ids[name] = id
		}
	})
	sliceID, errID := ids["*[]int"], ids[value.TypeName(reflect.TypeFor[*ckptErr]())]
	if sliceID == 0 || errID == 0 {
		text, _ := value.Render(cp.Values)
		t.Fatalf("checkpoint %s: want the *[]int and the *ckptErr by ID (%v)", text, ids)
	}

	ckptHold = nil
	p := newPlayer()
	p.seg = &segment{from: cp.Seq, values: cp.Values}
	if r := p.restoreSegment(); r != nil {
		t.Fatalf("restore: %+v", r)
	}
	if ckptHold == nil || ckptHold.vals == nil || fmt.Sprint(*ckptHold.vals) != "[4 5 6]" {
		t.Fatalf("restored holder %+v: want its pointer to [4 5 6]", ckptHold)
	}
	if v, ok := p.byID[sliceID]; !ok || v.Interface() != any(ckptHold.vals) {
		t.Errorf("object %d bound to %v, want the holder's pointer", sliceID, v)
	}
	v, ok := p.byID[errID]
	if !ok {
		t.Fatalf("the error object %d is not bound after restore", errID)
	}
	if e, _ := v.Interface().(*ckptErr); e == nil || e.msg != "bad" {
		t.Errorf("object %d restored as %v, want *ckptErr{bad}", errID, v)
	}
	runtime.KeepAlive(errObj)
}

// Function values of observed code that a package variable's map held
// after initialisation are written by name: replay finds them in its own
// variables after its initialisation, and the restored map holds them. One
// that the variables did not hold then (made later, or one of two closures
// of the same function literal) still refuses the checkpoint.
func TestCheckpointInitFunctionValues(t *testing.T) {
	for _, fn := range []any{ckptAdd, ckptSub, ckptMul} {
		markObservedFunc(t, fn)
	}
	ckptOps = ckptInitOps() // as the package's initialisation leaves it
	got := withCheckpoints(t)
	site := &Site{Name: "example.com/ckpt.Op", Pos: "ckpt/ckpt.go:4"}

	delete(ckptOps, "+")
	ckptOps["minus"] = ckptSub // the same function under another key
	ckptIncall(t, site, nil)
	cp := lastOf(*got, eventlog.KindCheckpoint)
	if cp == nil {
		t.Fatalf("no CHECKPOINT with the initialisation's function values in the state: %+v", *got)
	}

	ckptOps = ckptInitOps() // replay's initialisation
	p := newPlayer()
	p.seg = &segment{from: cp.Seq, values: cp.Values}
	if r := p.restoreSegment(); r != nil {
		t.Fatalf("restore: %+v", r)
	}
	if len(ckptOps) != 2 || ckptOps["+"] != nil || ckptOps["-"] == nil || ckptOps["minus"] == nil ||
		ckptOps["-"](5, 3) != 2 || ckptOps["minus"](7, 3) != 4 {
		t.Fatalf("restored ops %v, want - and minus, both ckptSub", ckptOps)
	}
	for id := range p.byID {
		if id >= localIDs {
			t.Errorf("checkpoint-local ID %d still bound after restore", id)
		}
	}

	ckptOps["*"] = ckptMul // not held after initialisation
	n := len(*got)
	ckptIncall(t, site, nil)
	e := lastOf((*got)[n:], eventlog.KindNoCheckpoint)
	if e == nil {
		t.Fatalf("no NO_CHECKPOINT with a function value made after initialisation: %+v", (*got)[n:])
	}
	d := value.Decoder{Buf: e.Values}
	if why := d.String(); !strings.Contains(why, "function value of observed code") {
		t.Errorf("reason %q", why)
	}
}

// A package variable that still holds the external object its package's
// initialisation made, which never crossed the boundary, is written as
// holding its value after initialisation: replay's initialisation made
// the same one. Once it holds another, the checkpoint is refused.
func TestCheckpointInitExternalObject(t *testing.T) {
	ckptRepl = strings.NewReplacer("a", "b") // as the package's initialisation leaves it
	got := withCheckpoints(t)
	site := &Site{Name: "example.com/ckpt.Replace", Pos: "ckpt/ckpt.go:8"}
	ckptIncall(t, site, nil)
	cp := lastOf(*got, eventlog.KindCheckpoint)
	if cp == nil || lastOf(*got, eventlog.KindNoCheckpoint) != nil {
		t.Fatalf("no CHECKPOINT with the initialisation's external object in a variable: %+v", *got)
	}
	mine := strings.NewReplacer("a", "b") // replay's initialisation
	ckptRepl = mine
	p := newPlayer()
	p.seg = &segment{from: cp.Seq, values: cp.Values}
	if r := p.restoreSegment(); r != nil {
		t.Fatalf("restore: %+v", r)
	}
	if ckptRepl != mine {
		t.Fatalf("restore replaced the variable's object made by initialisation: %p, want %p", ckptRepl, mine)
	}

	ckptRepl = strings.NewReplacer("c", "d") // made later, never crossed
	n := len(*got)
	ckptIncall(t, site, nil)
	e := lastOf((*got)[n:], eventlog.KindNoCheckpoint)
	if e == nil {
		t.Fatalf("no NO_CHECKPOINT with another external object in the variable: %+v", (*got)[n:])
	}
	d := value.Decoder{Buf: e.Values}
	if why := d.String(); !strings.Contains(why, "never crossed the boundary") {
		t.Errorf("reason %q", why)
	}
}

// A slice an incall returned is watched for the caller's writes; where the
// state a checkpoint writes does not reach its memory, the checkpoint is
// taken and the slice no longer watched (no later WRITE_IN names an incall
// before the checkpoint); where the state shares its memory (a buffer's
// array), the checkpoint is refused.
func TestCheckpointWatchedSlices(t *testing.T) {
	got := withCheckpoints(t)
	defer func() {
		watchedSlices.mu.Lock()
		watchedSlices.list = nil
		watchedSlices.mu.Unlock()
	}()
	site := &Site{Name: "example.com/ckpt.Bytes", Pos: "ckpt/ckpt.go:5"}
	returnSlice := func(r []byte) {
		t.Helper()
		s := In(site)
		f := s.Call()
		Encode(s, r)
		WatchSlice(s, f, 0, r)
		s.Return(f)
	}
	watching := func() int {
		watchedSlices.mu.Lock()
		defer watchedSlices.mu.Unlock()
		return len(watchedSlices.list)
	}

	returnSlice(make([]byte, 8)) // the state keeps none of it
	if lastOf(*got, eventlog.KindCheckpoint) == nil || lastOf(*got, eventlog.KindNoCheckpoint) != nil {
		t.Fatalf("no CHECKPOINT after returning a slice the state does not keep: %+v", *got)
	}
	if n := watching(); n != 0 {
		t.Errorf("%d slice(s) still watched after the checkpoint", n)
	}

	ckptHold = &ckptHolder{buf: make([]byte, 16)}
	n := len(*got)
	returnSlice(ckptHold.buf[4:8]) // the state's array
	e := lastOf((*got)[n:], eventlog.KindNoCheckpoint)
	if e == nil {
		t.Fatalf("no NO_CHECKPOINT with a watched slice in the state's memory: %+v", (*got)[n:])
	}
	d := value.Decoder{Buf: e.Values}
	if why := d.String(); !strings.Contains(why, "share memory with the observed state") {
		t.Errorf("reason %q", why)
	}
	if n := watching(); n != 1 {
		t.Errorf("%d slice(s) watched after a refused checkpoint, want 1", n)
	}
}

// A checkpoint carries the turn counters of the locks observed code took
// at turn sites (LOCK_TURN): replay of a segment counts on from them, so
// the next acquisition's recorded turn (write 2) is reached at once, where
// counting from zero it would wait for a write the segment never makes.
func TestCheckpointCarriesLockTurns(t *testing.T) {
	got := withCheckpoints(t)
	site := &Site{Name: "example.com/ckpt.Locked", Pos: "ckpt/ckpt.go:6"}
	lockSite := &Site{Name: "mu.Lock", Pos: "ckpt/ckpt.go:7"}
	var mu sync.Mutex
	s := In(site)
	f := s.Call()
	Lock(lockSite, &mu)
	mu.Unlock()
	s.Return(f)
	var num uint64
	for _, e := range *got {
		if e.Kind == eventlog.KindLockTurn {
			d := value.Decoder{Buf: e.Values}
			num = d.Uint()
		}
	}
	cp := lastOf(*got, eventlog.KindCheckpoint)
	if num == 0 || cp == nil {
		t.Fatalf("want a LOCK_TURN and then a CHECKPOINT: %+v", *got)
	}

	p := newPlayer()
	p.seg = &segment{from: cp.Seq, values: cp.Values}
	if r := p.restoreSegment(); r != nil {
		t.Fatalf("restore: %+v", r)
	}
	l := p.locks[num]
	if l == nil || l.writes != 1 || l.reads != 0 {
		t.Fatalf("lock %d restored as %+v, want 1 write", num, l)
	}
	next := &lockWait{acquired: true, writes: 2}
	if ok, extra := next.reached(l); !ok || extra {
		t.Errorf("the next write's turn: reached %v, extra %v; want reached", ok, extra)
	}
	runtime.KeepAlive(&mu)
}

// Where a checkpoint cannot be taken the recorder writes NO_CHECKPOINT with
// the reason and goes on: a goroutine of observed code still running, a
// channel in the state that replay's initialisation did not make.
func TestCheckpointRefusedWithReason(t *testing.T) {
	got := withCheckpoints(t)
	site := &Site{Name: "example.com/ckpt.Do", Pos: "ckpt/ckpt.go:2"}

	liveGo.Add(1)
	ckptIncall(t, site, nil)
	liveGo.Add(-1)
	e := lastOf(*got, eventlog.KindNoCheckpoint)
	if e == nil {
		t.Fatalf("no NO_CHECKPOINT with a goroutine of observed code alive: %+v", *got)
	}
	d := value.Decoder{Buf: e.Values}
	if why := d.String(); !strings.Contains(why, "goroutine(s) started by observed code still running") {
		t.Errorf("reason %q", why)
	}

	ckptChan = make(chan int, 1) // not the value it had after initialisation
	n := len(*got)
	ckptIncall(t, site, nil)
	e = lastOf((*got)[n:], eventlog.KindNoCheckpoint)
	if e == nil {
		t.Fatalf("no NO_CHECKPOINT with a channel in the state: %+v", (*got)[n:])
	}
	d = value.Decoder{Buf: e.Values}
	if why := d.String(); !strings.Contains(why, "holds a channel") {
		t.Errorf("reason %q", why)
	}

	ckptChan = nil // as after initialisation: checkpoints again
	n = len(*got)
	ckptIncall(t, site, nil)
	if lastOf((*got)[n:], eventlog.KindCheckpoint) == nil {
		t.Fatalf("no CHECKPOINT once nothing blocks it: %+v", (*got)[n:])
	}
}

// BenchmarkCheckpoint measures one checkpoint against the observed set's
// live state: objects numbered by the table, each a ckptNode.
func BenchmarkCheckpoint(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprint(n, "objects"), func(b *testing.B) {
			got := withCheckpointsB(b)
			site := &Site{Name: "example.com/ckpt.New", Pos: "ckpt/ckpt.go:1"}
			keep := make([]*ckptNode, n)
			for i := range keep {
				keep[i] = &ckptNode{n: i, name: "node"}
				s := In(site)
				f := s.Call()
				Encode(s, keep[i])
				s.Return(f)
			}
			*got = (*got)[:0]
			b.ResetTimer()
			var bytes int
			for range b.N {
				ckpt.mu.Lock()
				vals, why := encodeCheckpoint()
				ckpt.mu.Unlock()
				if why != "" {
					b.Fatal(why)
				}
				bytes = len(vals)
			}
			b.ReportMetric(float64(bytes), "bytes/checkpoint")
			runtime.KeepAlive(keep)
		})
	}
}
