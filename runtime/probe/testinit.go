package probe

import (
	"runtime"
	"strings"
	"sync/atomic"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// Calls of observed code made during initialisation by an in-package test
// file's variable initialisers (pflag's flag_test.go has
// `testBool = Bool("test_bool", false, "bool value")`, defining flags on
// CommandLine). Go initialises those variables with the package's own, on
// the goroutine that runs the observed package's initialisation, so without
// care they look like observed code calling itself: capture ran them
// unrecorded and the replay harness, which links no test files, lacked what
// they did. Capture records them as top-level incalls of stream 0; replay
// performs them in the recorded order, after initialisation (drive). An
// init function of the observed package that makes an outcall runs after
// them in the capture but before its package's incalls are registered in
// replay: that log diverges, saying so (performInitIncalls).

// initializing is set between BeginInit and EndInit.
var initializing atomic.Bool

// initIncall reports, in capture, whether the call of an exported function
// that the current goroutine is making while it initialises the observed set
// (inside is set) comes from an in-package test file rather than from
// observed code: the nearest caller outside the probe and the generated
// wrappers (zz_capture_gen.go, no //line directives) is in a _test.go file.
func initIncall(s *Stream) bool {
	if s.id != 0 || len(s.frames) != 0 || replaying || !initializing.Load() {
		return false
	}
	var pcs [16]uintptr
	n := runtime.Callers(3, pcs[:]) // above initIncall and in
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		switch {
		case strings.HasPrefix(f.Function, "github.com/rules-capture/rules_capture/runtime/probe."),
			strings.HasSuffix(f.File, "/zz_capture_gen.go"):
		default:
			return strings.HasSuffix(f.File, "_test.go")
		}
		if !more {
			return false
		}
	}
}

// performInitIncalls performs, in replay while the observed set initialises,
// the top-level incalls that stream 0's log holds before the initialisation
// outcall or read the code is about to make: calls an in-package test file's
// variable initialisers made in the capture, which the replay harness does
// not make itself.
func (p *player) performInitIncalls(s *Stream, out *Site) {
	sr := s.replay
	if sr == nil || len(s.frames) != 0 || !initializing.Load() {
		return
	}
	for !p.isDone() && sr.cur < sr.total {
		i, e := p.at(sr, sr.cur)
		if e.Kind != eventlog.KindCallIn || e.Parent != 0 || strings.HasPrefix(e.Site, CallbackPrefix) {
			return
		}
		p.waitTurn(i)
		site := lookupSite(e.Site)
		if site == nil || site.Invoke == nil {
			// The package's incalls are registered by its last init function,
			// after this one: it cannot be performed yet.
			p.diverge(&Divergence{Seq: e.Seq, Stream: e.Stream, Pos: out.Pos,
				Reason:   "an in-package test file's variable initialiser called observed code during initialisation, before an init function of the observed package made this outcall; replay performs such calls only once the package's init functions have run: make the call in the test, or in TestMain",
				Expected: p.describe(e), Actual: "outcall " + out.Name + " of an init function"})
			panic(abortReplay{})
		}
		inside := s.inside
		s.dec = value.Decoder{Buf: e.Values, Resolver: p}
		s.site = site
		p.invoke(site, s)
		s.inside = inside
		if sr.cur == i {
			return
		}
	}
}
