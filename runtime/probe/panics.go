package probe

import (
	"reflect"
	"runtime"
	"strings"
	"unsafe"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// Panics leaving a boundary frame. Each frame records the panic that ends it
// (PANIC_OUT for an incall, PANIC_IN for an outcall) and lets it go on with
// the same value. Recovering it and re-panicking inside the deferred call
// that recovered nests the panics: the frames where the panic was raised
// stay on the stack, so a crash's traceback still shows them, but the Go
// runtime pays for a panic through n such frames more than n² (go-cmp's
// recursive transformers, 30,000 levels deep, never finished under capture;
// TestDeepPanicIsNotNested). So a panic re-panics nested only while it has
// left at most nestedPanicLevels boundary frames in a row; beyond, the
// frame's deferred record recovers and returns, and Run re-panics from its
// own body: a fresh panic, which unwinds each frame once, as uninstrumented
// code's does. A panic through n frames costs O(nestedPanicLevels² + n), and
// a crash through up to nestedPanicLevels frames keeps its traceback.
const nestedPanicLevels = 8

// panicChain follows a panic through a stream's boundary frames.
type panicChain struct {
	frame  int    // the frame it left last
	levels int    // the frames it has left in a row; 0: none in flight
	value  any    // its value
	pos    string // where it was raised, in the original source
}

// leaves reports whether panic r, ending frame f, is the one that left the
// frame inside f last, raised again by the probe: the same value (the same
// interface words) and no normal return across f since (Return resets
// levels). Its site is known then: finding the raiser on the stack costs
// more than the rest of the record.
func (c *panicChain) leaves(f int, r any) bool {
	return c.levels != 0 && c.frame == f+1 && sameValue(r, c.value)
}

// reset forgets the panic, recovered.
func (c *panicChain) reset() { c.levels, c.value = 0, nil }

// sameValue: a and b hold the same type and the same data word (a value
// raised again, not merely an equal one; no comparison that could panic).
func sameValue(a, b any) bool {
	type eface struct{ typ, data unsafe.Pointer }
	return *(*eface)(unsafe.Pointer(&a)) == *(*eface)(unsafe.Pointer(&b))
}

// Run performs call, the boundary call of frame f that Call began, and
// records a panic that ends it before letting it go on with the same
// value (see nestedPanicLevels). A runtime.Goexit ends the frame without
// an event. After call returns, the caller encodes the results and calls
// Return.
func (s *Stream) Run(f int, call func()) {
	if s.idleCall {
		s.runIdle(f, call) // sample.go
		return
	}
	if r, panicked := s.run(f, call); panicked {
		// Outside any deferred call: a fresh panic. (r is nil only for
		// panic(nil) with GODEBUG=panicnil=1, which recover cannot tell from
		// runtime.Goexit: it goes on as a nil panic.)
		panic(r)
	}
}

// run calls call; it returns the value of a panic that ended call and was
// recovered, for Run to raise again.
func (s *Stream) run(f int, call func()) (r any, panicked bool) {
	defer func() {
		if !panicked {
			return // call returned
		}
		r = recover()
		if r == nil {
			s.exited(f)
			return
		}
		if s.panicked(f, r) {
			panic(r) // nested: see nestedPanicLevels
		}
	}()
	panicked = true
	call()
	return nil, false
}

// Recover, deferred right after Call, records a panic that ends frame f and
// re-panics with the same value, nested. After a normal Return it does
// nothing. The channel operations' helpers use it rather than Run: no
// boundary frame is ever inside theirs, so a panic leaves them first and
// nests once.
func (s *Stream) Recover(f int) {
	if f >= len(s.frames) {
		s.idle()
		return // returned normally
	}
	r := recover()
	if r == nil {
		s.exited(f)
		return
	}
	s.panicked(f, r)
	panic(r)
}

// exited ends frame f, left by runtime.Goexit: no panic value, the frame
// just ends.
func (s *Stream) exited(f int) {
	s.close(f)
	if len(s.frames) == 0 {
		refreshFields(s)
	}
	s.idle()
}

// panicked records panic r ending frame f and reports whether to re-panic
// nested (see nestedPanicLevels).
func (s *Stream) panicked(f int, r any) (nested bool) {
	again := s.chain.leaves(f, r)
	pos := s.chain.pos
	if !again {
		pos = s.panicSite()
	}
	fr := s.close(f)
	s.enc.Objects = s.turnTable()
	s.enc.Buf = s.enc.Buf[:0]
	s.enc.Outgoing = fr.kind == eventlog.KindCallIn && !leaveWhole // PANIC_OUT leaves, PANIC_IN enters
	encodePanic(&s.enc, r)
	s.enc.Buf = value.AppendString(s.enc.Buf, pos)
	kind := eventlog.KindPanicOut
	if fr.kind == eventlog.KindCallOut {
		kind = eventlog.KindPanicIn
	}
	s.site = fr.site
	if replaying {
		playerPanic(s, fr, kind, r)
	} else {
		s.emitFor(fr, kind)
		if kind == eventlog.KindPanicOut {
			if len(s.frames) == 0 {
				refreshFields(s) // what observed code left, as after a return
				if ckptOn && fr.kind == eventlog.KindCallIn {
					incallEnds(s, false) // not quiescent: the panic may still unwind through external code
				}
				// The panic may end the process once it leaves the
				// goroutine's outermost frame, not before: flushing at every
				// frame wrote a batch per frame (TestDeepPanicFlushesOnce).
				flush()
				if fr.kind == eventlog.KindCallIn {
					flightPanic(r) // flight.go: the ring is dumped before the panic may end the process
				}
			}
		}
	}
	s.enc.Buf = s.enc.Buf[:0]
	s.idle()
	if again {
		s.chain.levels++
	} else {
		s.chain.levels = 1
	}
	s.chain.frame, s.chain.value = f, r
	return s.chain.levels <= nestedPanicLevels
}

func encodePanic(e *value.Encoder, r any) {
	if err, ok := r.(error); ok {
		e.EncodeError(err)
		return
	}
	value.Encode[any](e, r)
}

// panicSite is the file:line where the panic being recovered was raised, in
// the original source. A panic that the probe raised again (Run, Recover)
// or replayed (an outcall's PANIC_IN) is the one the stream recorded or
// read last: its site is the original one, not the probe's own line in
// every frame after the first (TestDeepPanicEvents).
func (s *Stream) panicSite() string {
	fr := panicFrame()
	if raisesAgain(fr.Function) {
		return s.chain.pos
	}
	s.chain.pos = ""
	if fr.File != "" {
		s.chain.pos = shortPos(fr.File, fr.Line)
	}
	return s.chain.pos
}

// panicFrame is the frame that raised the panic being recovered (the
// transform's //line directives map its position to the original source).
func panicFrame() runtime.Frame {
	// The raiser is a few frames up (panicFrame, panicSite, panicked, the
	// deferred call, runtime.gopanic): a short walk first, as this runs
	// for every boundary frame a panic leaves.
	for _, depth := range []int{12, 64} {
		var pcs [64]uintptr
		n := runtime.Callers(2, pcs[:depth])
		frames := runtime.CallersFrames(pcs[:n])
		afterPanic := false
		for {
			fr, more := frames.Next()
			if fr.Function == "runtime.gopanic" {
				afterPanic = true
			} else if afterPanic && !strings.HasPrefix(fr.Function, "runtime.") {
				return fr
			}
			if !more {
				break
			}
		}
		if n < depth {
			break // the whole stack
		}
	}
	return runtime.Frame{}
}

var probePrefix = reflect.TypeFor[Stream]().PkgPath() + "."

// raisesAgain: fn is a function of the probe that raises a recorded panic
// again.
func raisesAgain(fn string) bool {
	name, ok := strings.CutPrefix(fn, probePrefix)
	if !ok {
		return false
	}
	switch name {
	case "(*Stream).Run", "(*Stream).run.func1", "(*Stream).Recover", "playerAnswer", "(*Stream).End":
		return true
	}
	return false
}
