package probe

import (
	"errors"
	"os"

	"github.com/rules-capture/rules_capture/runtime/value"
)

// A reflect.Type that crossed the boundary (an outcall's result, a field of
// a struct an outcall returns) is recorded by the identity of the type it
// describes and replayed as the type of that name in the replay build
// (value.TagReflectType, docs/design/reflection.md). Where the build
// cannot make that type (declared inside a function, in a _test.go file
// or in package main, a struct literal the binary does not hold, an
// unexported type the binary does not link), the observed code would
// reflect natively over something else: replay ends there with verdict
// "error" and a note naming the type, a limit of replay, not a change of
// the code.

// UnbuiltTypePrefix starts the note of a replay that ended at a recorded
// reflect.Type it cannot make.
const UnbuiltTypePrefix = "recorded reflect.Type "

// endAtUnbuiltType ends the replay (it does not return) if decoding the
// results of the outcall fr failed on a reflect.Type this build cannot
// make; it returns for any other failure.
func endAtUnbuiltType(s *Stream, fr frame) {
	if errors.Is(s.dec.Err, value.ErrUnbuiltReflectType) {
		endUnbuilt(s, "in the results of "+fr.site.Name)
	}
}

// endAtUnbuiltArg is endAtUnbuiltType for the arguments of an incall (a
// parameter of type reflect.Type: expr's nature.Cache.FromType given a type
// of the test's package).
func endAtUnbuiltArg(s *Stream) {
	if !errors.Is(s.dec.Err, value.ErrUnbuiltReflectType) {
		return
	}
	where := "in the arguments of an incall"
	if s.site != nil {
		where = "in the arguments of " + s.site.Name
	}
	endUnbuilt(s, where)
}

// endUnbuilt ends the replay with verdict "error" and a note naming the
// reflect.Type it could not make and where the log holds it.
func endUnbuilt(s *Stream, where string) {
	p := play
	if p == nil {
		return
	}
	note := UnbuiltTypePrefix + where + " cannot be made in replay: " + s.dec.Err.Error() +
		"; observed code would reflect natively over another type, so the log is not replayed (docs/design/reflection.md)"
	p.mu.Lock()
	if p.done {
		p.mu.Unlock()
		panic(abortReplay{})
	}
	p.report.Verdict = "error"
	p.report.Notes = append(p.report.Notes, note)
	p.report.Replayed = p.replayed
	p.finishLocked()
	r := p.report
	r.Notes = append([]string(nil), p.report.Notes...)
	p.mu.Unlock()
	p.cond.Broadcast()
	if p.exits {
		writeReport(&r)
		os.Exit(3)
	}
	panic(abortReplay{})
}
