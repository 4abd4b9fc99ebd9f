package probe

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/internal/cputime"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// Environment of a replay harness child (set by `capture replay`; the rest
// of the environment is empty: replay is hermetic).
const (
	EnvReplayLog    = "CAPTURE_REPLAY_LOG"
	EnvReplayCheck  = "CAPTURE_REPLAY_CHECK"  // strict (default), returns, crash
	EnvReplayReport = "CAPTURE_REPLAY_REPORT" // JSON report path
	// EnvReplayTrace names a file that receives, one line per event, the
	// events in the order the player released them ("seq stream kind
	// site"): two replays of one log are compared by it.
	EnvReplayTrace = "CAPTURE_REPLAY_TRACE"
	// EnvReplayStall is how long (a Go duration, default 10s) replay may
	// release no event before it reports a deadlock instead of hanging.
	EnvReplayStall = "CAPTURE_REPLAY_STALL"
)

// DefaultStall is how long replay may make no progress before it reports
// the goroutine that never reached its next event (EnvReplayStall).
const DefaultStall = 10 * time.Second

// Check levels (docs/divergence.md, "What is compared").
const (
	CheckStrict  = "strict"  // every outgoing event must match
	CheckReturns = "returns" // incall results and panics must match; outcalls must be answerable
	CheckCrash   = "crash"   // only new or changed panics fail
)

// Report is the outcome of replaying one log, written as JSON.
type Report struct {
	Log        string      `json:"log"`
	Check      string      `json:"check"`
	Verdict    string      `json:"verdict"` // "pass" or "diverged" or "error"
	Events     int         `json:"events"`  // events in the log
	Replayed   int         `json:"replayed"`
	Divergence *Divergence `json:"divergence,omitempty"`
	Notes      []string    `json:"notes,omitempty"`
	// Ended says where replay stopped in a log that its writer never
	// closed (killed, crashed, or still writing): the events past its end
	// were not judged. Empty for a closed log. It is among Notes too.
	Ended string `json:"ended,omitempty"`
}

// Divergence is the first out-of-sync event.
type Divergence struct {
	Seq       uint64 `json:"seq"`    // of the expected event (0: past the end of the log)
	Stream    uint32 `json:"stream"` // logical goroutine
	Reason    string `json:"reason"`
	Expected  string `json:"expected"`            // the event the log holds
	Actual    string `json:"actual"`              // what the code did
	Pos       string `json:"pos"`                 // original file:line where the code did it
	Candidate string `json:"candidate,omitempty"` // closest event of the log for what the code did
}

func (d *Divergence) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "divergence at seq %d (stream %d): %s\n", d.Seq, d.Stream, d.Reason)
	if d.Pos != "" {
		fmt.Fprintf(&b, "  at:        %s\n", d.Pos)
	}
	fmt.Fprintf(&b, "  expected:  %s\n", d.Expected)
	fmt.Fprintf(&b, "  actual:    %s\n", d.Actual)
	if d.Candidate != "" {
		fmt.Fprintf(&b, "  candidate: %s\n", d.Candidate)
	}
	return b.String()
}

type streamReplay struct {
	id  uint32
	idx []int // indices of the stream's events, in order
	cur int

	lastPanicMatched bool // the last incall's panic was the recorded PANIC_OUT

	// turn wakes the stream's goroutine when its event may be next (on
	// player.mu; made when it first waits): release wakes only the stream
	// whose event is next, not every waiting goroutine.
	turn *sync.Cond

	// driverDone counts the stream's driver out of Replay's wait (once):
	// when drive returns, or when its goroutine stops for good at the end
	// of a cut log (parkAtEnd) or inside an outcall the capture ended in
	// (parkUnanswered). Nil for streams Replay does not drive.
	driverDone func()
}

type objInfo struct {
	id    uint64
	name  string
	typ   reflect.Type // of the value bound to id (nil for stand-ins from Stand)
	raw   []byte       // recorded encoding of a placeholder that stands in for a value
	fresh bool         // created from contents in the log: its next encoding carries them too
	size  uintptr      // the largest pointee size it was encoded as: a larger one is a first sight again (objEntry.size)
}

type player struct {
	format       int                     // the log's format version (value.LastWholeObjectFormat)
	funcStandIns map[unsafe.Pointer]bool // closures of stand-ins for recorded function values (under objMu)
	mu           sync.Mutex
	cond         *sync.Cond
	events       []eventlog.Event
	streams      map[uint32]*streamReplay
	order        []uint32
	next         int             // index of the first event not yet replayed
	consumed     []bool          // by index
	replayed     int             // events replayed
	waiting      map[int]int     // indices goroutines wait to replay
	stalled      bool            // deadlocked: let the earliest waiter go
	quiet        int             // goroutines in waitQuiet (a timed wait)
	resynced     bool            // a stream replayed events out of order (resync)
	relaxed      int             // events released before an earlier event of another stream (release)
	orphans      int             // events skipped: no incall encloses them
	unanswered   []string        // sites of outcalls left blocked: the capture ended inside them (parkUnanswered)
	drivenStuck  []string        // the same, on driven streams (goroutines external code started)
	skipped      map[uint64]bool // CALL_OUTs among them
	children     map[uint32]bool // streams of goroutines started by observed code (GO)
	live         int             // such goroutines running in replay
	level        string
	report       Report
	done         bool                   // a divergence was reported, or the log ended with a panic
	stopped      chan struct{}          // closed when done is set
	stall        time.Duration          // no release for this long is a deadlock
	trace        []int32                // indices in release order, when tracing
	chanCount    map[uint64]uint64      // receives made at turn sites, by channel number in the log (turn.go)
	hasTurns     bool                   // the log holds CHAN_TURN events
	hasLockTurns bool                   // the log holds LOCK_TURN events (lockturn.go)
	locks        map[uint64]*replayLock // replayed counts of the locks acquired at turn sites, by number in the log
	lockWaits    map[*lockWait]bool     // acquisitions waiting for their turn on a lock
	tracing      bool

	// A log whose writer did not close it (state=open: killed, crashed,
	// still writing) ends at an arbitrary point; the writer assigns seqs and
	// writes batches in one order, so what it holds is every event up to
	// some seq, a consistent cut. Replay performs all of it, and a
	// goroutine that goes on past its stream's last event stops there for
	// good (parkAtEnd): what it did next was never recorded, so it is
	// neither judged nor replayed. A closed log keeps the strict reading:
	// an event past a stream's end is a divergence.
	cut       bool
	cutStats  cutStats
	parked    []uint32      // streams whose goroutine stopped at the end of a cut log
	started   bool          // Replay runs (package initialisation is over)
	exhausted chan struct{} // closed when every event of the log is released

	objMu sync.Mutex
	first firstAppearances // numbering.go
	byID  map[uint64]reflect.Value
	ids   map[unsafe.Pointer]objInfo
	maxID uint64

	// abort is called with the first divergence; by default it writes
	// the report and ends the process (exits).
	abort func(d *Divergence)
	exits bool
}

var play *player

func resolver() value.Resolver {
	if replaying {
		return play
	}
	return nil
}

// startReplay loads the log named by CAPTURE_REPLAY_LOG before any observed
// package initialises, so that their init outcalls are answered from it.
func startReplay() {
	path := os.Getenv(EnvReplayLog)
	if path == "" {
		return // the harness's parent process: it only launches children
	}
	p, err := loadLog(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "replay: %v\n", err)
		writeReport(&Report{Log: path, Verdict: "error", Notes: []string{err.Error()}})
		os.Exit(3)
	}
	p.level = os.Getenv(EnvReplayCheck)
	switch p.level {
	case "":
		p.level = CheckStrict
	case CheckStrict, CheckReturns, CheckCrash:
	default:
		fmt.Fprintf(os.Stderr, "replay: unknown check level %q (want strict, returns or crash)\n", p.level)
		os.Exit(3)
	}
	p.report.Check = p.level
	if err := p.configure(); err != nil {
		fmt.Fprintf(os.Stderr, "replay: %v\n", err)
		os.Exit(3)
	}
	install(p)
}

// configure reads the optional settings of the environment.
func (p *player) configure() error {
	if v := os.Getenv(EnvReplayStall); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return fmt.Errorf("%s=%q: want a positive duration such as 30s", EnvReplayStall, v)
		}
		p.stall = d
	}
	p.tracing = os.Getenv(EnvReplayTrace) != ""
	return nil
}

// LoadReplay makes the log at path the one Replay drives, with the given
// check level (tests and benchmarks of replay; a harness loads its log from
// the environment before package initialisation). Package initialisation
// has already run, so a log whose stream 0 starts with initialisation
// events diverges.
func LoadReplay(path, check string) error {
	p, err := loadLog(path)
	if err != nil {
		return err
	}
	if check == "" {
		check = CheckStrict
	}
	p.level = check
	p.report.Check = check
	p.abort = func(*Divergence) {}
	p.exits = false
	if err := p.configure(); err != nil {
		return err
	}
	install(p)
	return nil
}

func install(p *player) {
	p.consumed = make([]bool, len(p.events))
	p.waiting = map[int]int{}
	play = p
	replaying = true
	value.SetReplayRedaction()
	leaveWhole = p.format <= value.LastWholeObjectFormat
	enabled.Store(true)
	s0 := &Stream{id: 0, replay: p.stream(0)}
	bind(getg(), s0)
}

func loadLog(path string) (*player, error) {
	r, err := eventlog.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if st := r.Meta().Status; st.Dropped > 0 {
		return nil, droppedEventsError(path, st)
	}
	p := newPlayer()
	p.report.Log = path
	p.format = r.Meta().FormatVersion
	p.cut = !r.Meta().Status.Closed
	if n := r.Meta().Status.Events; n > 0 && n < 1<<26 {
		p.events = make([]eventlog.Event, 0, n)
	}
	intern := map[string]string{}
	in := func(s string) string {
		if v, ok := intern[s]; ok {
			return v
		}
		s = strings.Clone(s)
		intern[s] = s
		return s
	}
	// Values go to one arena (few allocations, little for the GC to scan);
	// the events get their slices of it once it has stopped growing.
	var arena []byte
	var ends []int
	// Values of older formats are rewritten into today's encoding, which
	// the replayed code's values are compared with byte for byte.
	upgrade := r.Meta().FormatVersion <= value.LastNamedStructFormat
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
		c := *e
		c.Site, c.Pos, c.RecvType = in(c.Site), in(c.Pos), in(c.RecvType)
		c.Values = nil
		vals := e.Values
		if upgrade {
			if up, err := value.Upgrade(vals); err == nil {
				vals = up
			} // else kept as it is: decoding it reports the corruption at its event
		}
		arena = append(arena, vals...)
		ends = append(ends, len(arena))
		p.add(c)
	}
	start := 0
	for i := range p.events {
		p.events[i].Values = arena[start:ends[i]:ends[i]]
		start = ends[i]
	}
	for i := range p.events {
		switch p.events[i].Kind {
		case eventlog.KindChanTurn:
			p.hasTurns = true
		case eventlog.KindLockTurn:
			p.hasLockTurns = true
		}
		if e := &p.events[i]; e.Kind == eventlog.KindGo {
			d := value.Decoder{Buf: e.Values}
			if id := uint32(d.Uint()); d.Err == nil {
				p.children[id] = true // started by the replayed code, not driven
			}
		}
	}
	if st := r.Meta().Status; st.Closed && st.Dropped > 0 {
		p.report.Notes = append(p.report.Notes, fmt.Sprintf("log is incomplete (closed=%v, dropped=%d): replay stops where it ends", st.Closed, st.Dropped))
	}
	if p.cut {
		p.cutStats = p.countCut()
	}
	return p, nil
}

func newPlayer() *player {
	p := &player{
		streams:      map[uint32]*streamReplay{},
		byID:         map[uint64]reflect.Value{},
		ids:          map[unsafe.Pointer]objInfo{},
		children:     map[uint32]bool{},
		stopped:      make(chan struct{}),
		stall:        DefaultStall,
		funcStandIns: map[unsafe.Pointer]bool{},
		format:       eventlog.FormatVersion,
		exhausted:    make(chan struct{}),
	}
	p.cond = sync.NewCond(&p.mu)
	p.abort = p.exitOnDivergence
	p.exits = true
	return p
}

func (p *player) add(e eventlog.Event) {
	p.events = append(p.events, e)
	p.stream(e.Stream).idx = append(p.stream(e.Stream).idx, len(p.events)-1)
	p.report.Events++
}

func (p *player) stream(id uint32) *streamReplay {
	sr, ok := p.streams[id]
	if !ok {
		sr = &streamReplay{id: id}
		p.streams[id] = sr
		p.order = append(p.order, id)
	}
	return sr
}

// Replay drives the log loaded at start-up: every recorded top-level incall
// is performed, each logical goroutine on its own goroutine, boundary
// events released in the recorded global order. It returns the report.
func Replay() *Report {
	p := play
	if p == nil {
		return &Report{Verdict: "error", Notes: []string{"no log to replay: " + EnvReplayLog + " is not set"}}
	}
	stop := make(chan struct{})
	defer close(stop)
	go p.watchdog(stop)
	var wg sync.WaitGroup
	for _, id := range p.order {
		sr := p.streams[id]
		if id == 0 || p.children[id] {
			continue
		}
		wg.Add(1)
		sr.driverDone = sync.OnceFunc(wg.Done)
		go func() {
			defer sr.driverDone()
			s := &Stream{id: sr.id, replay: sr}
			bind(getg(), s)
			p.drive(s)
		}()
	}
	s0 := current()
	if s0.replay == nil || s0.replay.id != 0 {
		// Not the goroutine that ran package initialisation (LoadReplay).
		s0 = &Stream{id: 0, replay: p.stream(0)}
	}
	// Stream 0 (after init) is driven on a goroutine of its own too, so
	// that Replay returns with a report even when replayed code blocks
	// for good (see watchdog).
	wg.Add(1)
	s0.replay.driverDone = sync.OnceFunc(wg.Done)
	p.mu.Lock()
	p.started = true
	p.mu.Unlock()
	go func() {
		defer s0.replay.driverDone()
		bind(getg(), s0)
		p.drive(s0)
	}()
	finished := make(chan struct{})
	go func() {
		wg.Wait()
		p.waitChildren()
		close(finished)
	}()
	var exhausted <-chan struct{}
	if p.cut {
		exhausted = p.exhausted
	}
	select {
	case <-finished:
	case <-p.stopped:
		// A divergence (or a panic that ended the capture): the other
		// goroutines unwind at their next boundary event; one blocked
		// inside the observed code for good is left behind.
		select {
		case <-finished:
		case <-time.After(2 * time.Second):
		}
	case <-exhausted:
		// A cut log is fully replayed. Its goroutines stop at their next
		// boundary event past the end (parkAtEnd) or finish; one blocked
		// natively inside the observed code (a select whose outcome the log
		// lacks) is left behind after a second: the capture's goroutine was
		// there, or further on, when the log ended.
		select {
		case <-finished:
		case <-p.stopped:
		case <-time.After(time.Second):
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.done && p.next < len(p.events) {
		e := &p.events[p.next]
		p.divergeLocked(&Divergence{Seq: e.Seq, Stream: e.Stream, Reason: "the log has events that replay never reached",
			Expected: p.describe(e), Actual: "nothing: every driven incall has returned"})
	}
	p.report.Replayed = p.replayed
	if p.orphans > 0 {
		p.report.Notes = append(p.report.Notes, fmt.Sprintf("%d events were not replayed: outcalls of observed code entered without an exported function (an unexported function called by an in-package test, or an observed closure called by external code)", p.orphans))
	}
	if len(p.unanswered) > 0 {
		p.report.Notes = append(p.report.Notes, fmt.Sprintf("%d goroutines started by observed code were inside an outcall when the capture ended (the log has its CALL_OUT, not its outcome: a goroutine that never ends): replay left them blocked there (%s)", len(p.unanswered), strings.Join(p.unanswered, ", ")))
	}
	if len(p.drivenStuck) > 0 {
		p.report.Notes = append(p.report.Notes, fmt.Sprintf("%d goroutines that external code started were inside an outcall when the capture ended (the log has its CALL_OUT, not its outcome nor the incall's return: the process ended while they ran): replay left them blocked there (%s)", len(p.drivenStuck), strings.Join(p.drivenStuck, ", ")))
	}
	if p.cut && !p.done {
		p.report.Ended = p.describeCutLocked()
		p.report.Notes = append(p.report.Notes, p.report.Ended)
	}
	if p.relaxed > 0 {
		p.report.Notes = append(p.report.Notes, fmt.Sprintf("%d boundary events were replayed out of the recorded global order: observed code synchronises internally (e.g. a mutex held across an outcall), and replay does not reproduce the interleaving inside the observed set", p.relaxed))
	}
	if p.report.Verdict == "" {
		p.report.Verdict = "pass"
	}
	r := p.report
	r.Notes = append([]string(nil), p.report.Notes...)
	return &r
}

// Trace returns the events of the last replay in the order the player
// released them, one line each: "seq stream kind site".
func Trace() []string {
	p := play
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]string, len(p.trace))
	for k, i := range p.trace {
		e := &p.events[i]
		out[k] = fmt.Sprintf("%d %d %s %s", e.Seq, e.Stream, e.Kind, e.Site)
	}
	return out
}

// drive performs the top-level incalls of stream s.
func (p *player) drive(s *Stream) {
	sr := s.replay
	for !p.isDone() && sr.cur < len(sr.idx) {
		i := sr.idx[sr.cur]
		e := &p.events[i]
		if e.Kind == eventlog.KindWriteIn {
			p.waitTurn(i)
			if !p.writeIn(s, e) {
				return
			}
			sr.cur++
			p.release(i)
			continue
		}
		if e.Parent == 0 && (e.Kind == eventlog.KindCallOut || e.Kind == eventlog.KindReadOut) {
			p.skipOrphan(sr)
			continue
		}
		// A callback's CALL_IN may name the CALL_OUT (of another stream)
		// that passed its function value.
		if e.Kind != eventlog.KindCallIn || (e.Parent != 0 && !strings.HasPrefix(e.Site, CallbackPrefix)) {
			reason := "replay can only start a logical goroutine at an incall"
			if e.Kind == eventlog.KindCallOut {
				reason = "outcall from a goroutine that no incall started (a goroutine started by observed code, or an observed function value called by external code): not replayed yet"
			}
			p.diverge(&Divergence{Seq: e.Seq, Stream: e.Stream, Reason: reason, Expected: p.describe(e), Actual: "no incall to perform"})
			return
		}
		p.waitTurn(i)
		if strings.HasPrefix(e.Site, CallbackPrefix) && e.Parent != 0 && p.skippedOutcall(e.Parent) {
			// External code calls back a function value that an outcall
			// replay skipped passed to it (an observed closure that net/http
			// called, whose outcalls replay does not perform): not replayed
			// either.
			p.skipOrphan(sr)
			continue
		}
		if strings.HasPrefix(e.Site, CallbackPrefix) {
			// External code called an observed function value on a
			// goroutine of its own (an http.HandlerFunc).
			before := sr.cur
			p.invokeCallback(s, e)
			if !p.isDone() && sr.cur == before {
				return
			}
			continue
		}
		site := lookupSite(e.Site)
		if site == nil || site.Invoke == nil {
			reason := "recorded incall to a function that this build does not export (removed, renamed or unexported?)"
			if strings.Contains(e.Site, "[") {
				reason = "recorded incall of a generic instantiation that this replay build does not contain: the replay harness instantiates only type arguments it can name (docs/limitations.md)"
			}
			p.diverge(&Divergence{Seq: e.Seq, Stream: e.Stream, Reason: reason,
				Expected: p.describe(e), Actual: "no such exported function", Candidate: p.similarSite(e.Site)})
			return
		}
		s.dec = value.Decoder{Buf: e.Values, Resolver: p}
		s.site = site
		before := sr.cur
		p.invoke(site, s)
		if !p.isDone() && sr.cur == before {
			p.diverge(&Divergence{Seq: e.Seq, Stream: e.Stream, Reason: "the incall made no boundary event (the function no longer records its call?)",
				Expected: p.describe(e), Actual: "nothing"})
			return
		}
	}
}

// waitChildren waits, after the drivers are done, for the goroutines that
// observed code started, until they end or the log is fully replayed. One
// blocked for good (a background loop) is left behind once nothing has been
// replayed for a second.
func (p *player) waitChildren() {
	p.waitQuiet(func() bool { return p.live > 0 && p.next < len(p.events) })
}

// waitOthers is called by a stream that has no logged event left but makes
// one. Another goroutine's event may end the log first — a panic in a
// goroutine started by observed code killed the capture's process while this
// one ran on — so it waits until the rest of the log is replayed (or nothing
// moves for a second). It reports whether the stream still diverges.
func (p *player) waitOthers() bool {
	p.mu.Lock()
	waited := p.next < len(p.events)
	p.mu.Unlock()
	if waited {
		p.waitQuiet(func() bool { return p.next < len(p.events) })
	}
	p.mu.Lock()
	done := p.done
	p.mu.Unlock()
	if done {
		p.waitTurn(-1) // unwinds: the replay has ended
	}
	return true
}

// waitQuiet waits while busy() holds (called with p.mu held), until
// nothing has been replayed for a second or the replay has ended.
func (p *player) waitQuiet(busy func() bool) {
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				p.cond.Broadcast()
			}
		}
	}()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.quiet++
	defer func() { p.quiet-- }()
	last, since := p.replayed, time.Now()
	for !p.done && busy() {
		if p.replayed != last {
			last, since = p.replayed, time.Now()
		} else if time.Since(since) > time.Second {
			return
		}
		p.cond.Wait()
	}
}

// skipOrphan skips an outcall (and its outcome) or read that no incall
// encloses: code of the observed set entered without an exported function —
// an unexported function called by an in-package test, or an observed
// closure called by external code. Replay cannot drive such code; the report
// says how many events it skipped.
func (p *player) skipOrphan(sr *streamReplay) {
	i := sr.idx[sr.cur]
	e := &p.events[i]
	p.waitTurn(i)
	sr.cur++
	p.skip(e)
	p.release(i)
	var ends func(f *eventlog.Event) bool
	switch e.Kind {
	case eventlog.KindCallOut:
		ends = func(f *eventlog.Event) bool {
			return (f.Kind == eventlog.KindReturnOut || f.Kind == eventlog.KindPanicIn) && f.Parent == e.Seq
		}
	case eventlog.KindCallIn: // a callback of a value passed by a skipped outcall
		ends = func(f *eventlog.Event) bool {
			return (f.Kind == eventlog.KindReturnIn || f.Kind == eventlog.KindPanicOut) && f.Parent == e.Seq
		}
	default:
		return
	}
	for sr.cur < len(sr.idx) {
		j := sr.idx[sr.cur]
		f := &p.events[j]
		p.waitTurn(j)
		sr.cur++
		p.skip(f)
		p.release(j)
		if ends(f) {
			return
		}
	}
}

// skip counts event e as not replayed; a skipped CALL_OUT is remembered,
// since external code may call back, on a goroutine of its own, a function
// value that it passed (a handler observed code returned calls bolt's
// Batch(fn), and bolt calls fn on its own goroutine).
func (p *player) skip(e *eventlog.Event) {
	p.mu.Lock()
	p.orphans++
	if e.Kind == eventlog.KindCallOut {
		if p.skipped == nil {
			p.skipped = map[uint64]bool{}
		}
		p.skipped[e.Seq] = true
	}
	p.mu.Unlock()
	p.numberedBy(e)
}

// skippedOutcall reports whether the CALL_OUT seq was skipped (its turn
// has come and gone when this is asked: it precedes the asking event).
func (p *player) skippedOutcall(seq uint64) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.skipped[seq]
}

// numberedBy counts the objects that e, an event replay skips, numbered in
// the capture: replay numbers the objects that cross the boundary after it
// from there on, as the capture did. (The init outcalls of an in-package
// test file's variables are in the capture's log but not in the replay
// harness, which links no test files: pflag's flag_test.go.)
func (p *player) numberedBy(e *eventlog.Event) {
	top, _ := value.MaxObjectID(e.Values)
	top = max(top, e.RecvID)
	p.objMu.Lock()
	if top > p.maxID && top < varIDs {
		p.maxID = top
	}
	p.objMu.Unlock()
}

// invoke calls site's invoker; a panic that the log expected (PANIC_OUT)
// ends here, as it did in the external caller.
func (p *player) invoke(site *Site, s *Stream) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(abortReplay); ok {
				return
			}
			if s.replay != nil && s.replay.lastPanicMatched {
				return
			}
			p.diverge(&Divergence{Stream: s.id, Reason: "unexpected panic while performing an incall", Actual: fmt.Sprint(r), Pos: site.Pos})
		}
	}()
	s.replay.lastPanicMatched = false
	s.inside = false
	s.frames = s.frames[:0]
	site.Invoke(s)
}

// invokeCallback performs a top-level callback; like invoke, a panic the
// log expected ends here.
func (p *player) invokeCallback(s *Stream, e *eventlog.Event) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(abortReplay); ok {
				return
			}
			if s.replay.lastPanicMatched {
				return
			}
			p.diverge(&Divergence{Seq: e.Seq, Stream: s.id, Reason: "unexpected panic while performing a callback", Actual: fmt.Sprint(r), Pos: e.Pos})
		}
	}()
	s.replay.lastPanicMatched = false
	s.inside = false
	s.frames = s.frames[:0]
	p.performCallback(s, e)
}

// abortReplay unwinds goroutines after a divergence when abort returns
// (tests of the player); the process normally exits first.
type abortReplay struct{}

func (p *player) isDone() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.done
}

func (p *player) waitTurn(i int) {
	p.mu.Lock()
	if p.next != i && !p.done && !p.ownGap(i) {
		sr := p.streams[p.events[i].Stream]
		if sr.turn == nil {
			sr.turn = sync.NewCond(&p.mu)
		}
		p.waiting[i]++
		for p.next != i && !p.done && !p.ownGap(i) {
			if p.stalled && i == p.minWaiting() {
				// No stream can make progress in the recorded order: observed
				// code synchronises internally (a mutex held across an
				// outcall) and replay's goroutines took it in another order.
				// Let the earliest waiting event go first. Whether it is
				// released out of order is counted at its release: a
				// goroutine let go before its CALL_IN waits again at the
				// CALL_IN itself, and may get its turn in order.
				p.stalled = false
				break
			}
			sr.turn.Wait()
		}
		if p.waiting[i]--; p.waiting[i] == 0 {
			delete(p.waiting, i)
		}
	}
	done := p.done
	p.mu.Unlock()
	if done {
		if p.exits {
			// The diverging goroutine is writing the report and will end
			// the process: wait for it rather than crash first.
			select {}
		}
		panic(abortReplay{})
	}
}

func (p *player) minWaiting() int {
	m := -1
	for i := range p.waiting {
		if m < 0 || i < m {
			m = i
		}
	}
	return m
}

// release marks event i replayed.
func (p *player) release(i int) {
	p.mu.Lock()
	if i > p.next && !p.ownGap(i) {
		// An earlier event of another stream is not replayed yet: the
		// event goes out of the recorded order (let go by waitTurn).
		p.relaxed++
	}
	// A release is progress: a stall the watchdog saw before it is over,
	// and a later one is detected anew.
	p.stalled = false
	p.consumed[i] = true
	if p.tracing {
		p.trace = append(p.trace, int32(i))
	}
	for p.next < len(p.events) && p.consumed[p.next] {
		p.next++
	}
	if p.next == len(p.events) {
		select {
		case <-p.exhausted:
		default:
			close(p.exhausted)
		}
	}
	p.replayed++
	if p.resynced {
		p.wakeAllLocked() // a stream may now wait only for its own events (ownGap)
	} else if p.next < len(p.events) {
		if sr := p.streams[p.events[p.next].Stream]; sr.turn != nil {
			sr.turn.Broadcast()
		}
	}
	p.mu.Unlock()
	p.cond.Broadcast() // waitQuiet
}

// wakeAllLocked wakes every goroutine waiting for its turn: the replay
// ended, or the earliest waiting event is let go (called with p.mu held).
func (p *player) wakeAllLocked() {
	for _, sr := range p.streams {
		if sr.turn != nil {
			sr.turn.Broadcast()
		}
	}
}

// watchdog detects a replay that cannot go on. A replay is deadlocked
// when no event was released and no goroutine of the process can run: all
// wait on a channel, a lock, a WaitGroup or a condition (one snapshot of
// every goroutine's state, taken with the world stopped, on two ticks in a
// row). A goroutine that is merely slow — descheduled on a loaded machine —
// is runnable, so it never counts as a deadlock. On a deadlock with
// goroutines waiting for their turn (observed code holding a lock across
// an outcall, taken by replay's goroutines in another order than in the
// capture) the earliest waiting event goes first (see waitTurn); with
// none, the goroutine whose event is next is blocked for good inside the
// observed code, which is reported as a divergence. If nothing is released
// for p.stall even though goroutines run (an endless loop), that is
// reported too: replay never hangs silently.
func (p *player) watchdog(stop chan struct{}) {
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	last, since, cpuSince := -1, time.Now(), cputime.Process()
	blockedTicks := 0
	var buf []byte
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		p.mu.Lock()
		if p.done || p.next >= len(p.events) || p.replayed != last {
			last, since, cpuSince, blockedTicks = p.replayed, time.Now(), cputime.Process(), 0
			p.mu.Unlock()
			continue
		}
		p.mu.Unlock()
		blocked := allBlocked(&buf)
		p.mu.Lock()
		if p.replayed != last || p.done {
			p.mu.Unlock()
			continue
		}
		if !blocked {
			blockedTicks = 0
		} else if blockedTicks++; blockedTicks >= 2 {
			blockedTicks = 0
			if len(p.waiting) > 0 {
				p.stalled = true
				p.wakeAllLocked()
				p.mu.Unlock()
				continue
			}
			if p.quiet == 0 {
				d := p.deadlockLocked(time.Since(since), true)
				p.mu.Unlock()
				p.diverge(d)
				return
			}
		}
		if !stallOver(p.stall, time.Since(since), cputime.Process()-cpuSince, blocked) {
			p.mu.Unlock()
			continue
		}
		d := p.deadlockLocked(time.Since(since), blocked)
		p.mu.Unlock()
		p.diverge(d)
		return
	}
}

// stallOver decides whether a replay that has released nothing for idle
// (wall time; the process used cpu meanwhile) has stalled for good, given
// the limit (EnvReplayStall). With every goroutine blocked, idle alone
// counts. With goroutines running, an endless loop uses CPU, so it takes
// the limit in wall time and half of it in CPU time: a replay starved of
// CPU on a loaded machine runs normally for longer than the limit without
// using it (once a false divergence at 10 s of wall time, 4 s of CPU for
// the whole replay; TestStallOver). A goroutine that runs without using CPU
// (asleep, in a system call) is reported after stallWallFactor limits.
func stallOver(limit, idle, cpu time.Duration, blocked bool) bool {
	if blocked {
		return idle >= limit
	}
	return idle >= limit && cpu >= limit/2 || idle >= stallWallFactor*limit
}

// stallWallFactor bounds the wall time a replay whose goroutines run
// without using CPU may release nothing, in limits (EnvReplayStall).
const stallWallFactor = 6

// allBlocked reports whether every goroutine but the caller waits for
// another goroutine (channel, select, sync primitive): none is running,
// runnable, in a system call or asleep. It reads the headers of a dump of
// all goroutines ("goroutine 7 [chan receive, 2 minutes]:").
func allBlocked(buf *[]byte) bool {
	if len(*buf) == 0 {
		*buf = make([]byte, 1<<20)
	}
	n := runtime.Stack(*buf, true)
	for n == len(*buf) {
		*buf = make([]byte, 2*len(*buf))
		n = runtime.Stack(*buf, true)
	}
	return dumpBlocked((*buf)[:n])
}

// dumpBlocked is allBlocked's reading of a dump whose first goroutine is
// the caller's.
func dumpBlocked(dump []byte) bool {
	self := true // the first goroutine of the dump is the caller
	for len(dump) > 0 {
		line := dump
		if i := bytes.IndexByte(dump, '\n'); i >= 0 {
			line, dump = dump[:i], dump[i+1:]
		} else {
			dump = nil
		}
		if !bytes.HasPrefix(line, []byte("goroutine ")) {
			continue
		}
		if self {
			self = false
			continue
		}
		open, end := bytes.IndexByte(line, '['), bytes.LastIndexByte(line, ']')
		if open < 0 || end < open {
			return false
		}
		state := string(line[open+1 : end])
		if i := strings.IndexByte(state, ','); i >= 0 {
			state = state[:i]
		}
		if (!waitingState(state) && !signalWait(state, dump)) || runtimeSema(state, dump) {
			return false
		}
	}
	return true
}

// runtimeSema: a goroutine in state semacquire whose first frame is not a
// semaphore of package sync or internal/poll (sync.runtime_Semacquire)
// waits on one of the runtime's own (the runtime's frames are not listed):
// a collection starting, or the world being stopped, by a goroutine dump
// like the watchdog's own. It goes on without any other goroutine acting,
// as one that allocates while the watchdog looks does (the player's first
// pass over the log), so it is not blocked. rest starts at its first
// frame.
func runtimeSema(state string, rest []byte) bool {
	if state != "semacquire" {
		return false
	}
	first := rest
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		first = rest[:i]
	}
	return !bytes.HasPrefix(first, []byte("sync.runtime_Semacquire")) && !bytes.HasPrefix(first, []byte("internal/poll.runtime_Semacquire"))
}

// signalWait: the goroutine of os/signal (started by any signal.Notify, e.g.
// by the test wrapper of rules_go) sits in a system call waiting for a
// signal, which replayed code does not send. rest starts at the goroutine's
// first frame.
func signalWait(state string, rest []byte) bool {
	return state == "syscall" && bytes.HasPrefix(rest, []byte("os/signal.signal_recv("))
}

// waitingState: a goroutine in this state runs again only when another
// goroutine acts. Unknown states count as running.
func waitingState(state string) bool {
	switch {
	case strings.HasPrefix(state, "chan "), strings.HasPrefix(state, "select"),
		strings.HasPrefix(state, "sync."), strings.HasPrefix(state, "semacquire"),
		// The finalizer and cleanup goroutines, when listed, wait for the
		// collector, not for replayed code.
		strings.HasPrefix(state, "finalizer wait"), strings.HasPrefix(state, "cleanup wait"):
		return true
	}
	return false
}

// deadlockLocked describes a replay that has released nothing for a while:
// the log's next event, the last event its stream crossed, and the streams
// waiting for their turn (called with p.mu held).
func (p *player) deadlockLocked(idle time.Duration, blocked bool) *Divergence {
	e := &p.events[p.next]
	d := &Divergence{Seq: e.Seq, Stream: e.Stream, Expected: p.describe(e),
		Reason: fmt.Sprintf("deadlock: the goroutine of stream %d waits inside the observed code (on a channel, lock, sync.WaitGroup or condition that code outside the observed set released in the capture?) and every other goroutine waits too, so the log's next event never comes", e.Stream)}
	if blocked && len(p.lockWaits) > 0 {
		d.Reason = fmt.Sprintf("deadlock: goroutines wait for their turn on a lock of the observed set (below) that never comes: the replayed code does not make the acquisition the log gives the turn before theirs, and every other goroutine waits too (the log's next event is of stream %d)", e.Stream)
	}
	if !blocked {
		d.Reason = fmt.Sprintf("replay released no event for %s (%s=%s): the goroutine of stream %d runs but never reaches the log's next event (an endless loop inside the observed code?)", idle.Round(time.Millisecond), EnvReplayStall, p.stall, e.Stream)
	}
	var b strings.Builder
	b.WriteString("nothing")
	for j := p.next - 1; j >= 0; j-- {
		if f := &p.events[j]; f.Stream == e.Stream && p.consumed[j] {
			fmt.Fprintf(&b, "; stream %d last crossed the boundary at seq %d: %s", e.Stream, f.Seq, p.describe(f))
			d.Pos = f.Pos
			break
		}
	}
	var waiting []int
	for i := range p.waiting {
		waiting = append(waiting, i)
	}
	sort.Ints(waiting)
	for k, i := range waiting {
		if k == 4 {
			fmt.Fprintf(&b, "; %d more streams wait", len(waiting)-k)
			break
		}
		f := &p.events[i]
		fmt.Fprintf(&b, "; stream %d waits for its turn at seq %d (%s %s)", f.Stream, f.Seq, f.Kind, f.Site)
	}
	b.WriteString(p.describeLockWaitsLocked())
	if len(p.parked) > 0 {
		// In a cut log, a goroutine stopped past the end of its events may
		// hold what the next event's goroutine waits for: replay let it run
		// ahead to a point the capture reached only after this event.
		fmt.Fprintf(&b, "; %d goroutines are stopped past the end of their events in this cut log (streams %s)", len(p.parked), streamList(p.parked))
	}
	d.Actual = b.String()
	return d
}

// peek returns the next event of s's stream, waiting for its turn.
func (p *player) peek(s *Stream, actual func() string) (int, *eventlog.Event) {
	sr := s.replay
	if sr == nil {
		p.diverge(&Divergence{Stream: s.id, Reason: "boundary event on a goroutine that replay did not start (goroutines started by observed code are not replayed yet)",
			Actual: actual(), Expected: "nothing", Pos: s.site.Pos})
		panic(abortReplay{})
	}
	if sr.cur >= len(sr.idx) && p.cut {
		p.parkAtEnd(s)
	}
	if sr.cur >= len(sr.idx) && p.waitOthers() {
		p.diverge(&Divergence{Stream: s.id, Reason: "the code made a boundary event after the log's last event of this goroutine",
			Expected: "end of the stream", Actual: actual(), Pos: s.site.Pos, Candidate: p.candidate(s, sr)})
		panic(abortReplay{})
	}
	i := sr.idx[sr.cur]
	p.waitTurn(i)
	return i, &p.events[i]
}

func (p *player) consume(s *Stream) {
	i := s.replay.idx[s.replay.cur]
	s.replay.cur++
	p.release(i)
}

func (p *player) describe(e *eventlog.Event) string {
	vals, err := value.Render(e.Values)
	if err != nil {
		vals += " <" + err.Error() + ">"
	}
	recv := ""
	if e.RecvType != "" {
		recv = fmt.Sprintf(" on %s#%d", e.RecvType, e.RecvID)
	}
	return fmt.Sprintf("%s %s(%s)%s at %s", e.Kind, e.Site, vals, recv, e.Pos)
}

func describeActual(kind eventlog.Kind, site *Site, vals []byte) string {
	r, err := value.Render(vals)
	if err != nil {
		r += " <" + err.Error() + ">"
	}
	name := ""
	if site != nil {
		name = site.Name
	}
	return fmt.Sprintf("%s %s(%s)", kind, name, r)
}

// candidate finds the closest event in the log for what the code did: the
// nearest later event of the same site in the stream, else anywhere.
func (p *player) candidate(s *Stream, sr *streamReplay) string {
	if s.site == nil {
		return ""
	}
	for j := sr.cur; j < len(sr.idx); j++ {
		if e := &p.events[sr.idx[j]]; e.Site == s.site.Name {
			return fmt.Sprintf("seq %d: %s", e.Seq, p.describe(e))
		}
	}
	for i := range p.events {
		if e := &p.events[i]; e.Site == s.site.Name {
			return fmt.Sprintf("seq %d: %s", e.Seq, p.describe(e))
		}
	}
	return ""
}

func (p *player) similarSite(name string) string {
	short := name[strings.LastIndexAny(name, ".)")+1:]
	sitesMu.RLock()
	defer sitesMu.RUnlock()
	var names []string
	for n := range sites {
		if strings.HasSuffix(n, "."+short) || strings.EqualFold(n, name) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	if len(names) > 0 {
		return "exported now: " + strings.Join(names, ", ")
	}
	return ""
}

// playerCall matches a CALL_IN or CALL_OUT made by the code.
func playerCall(s *Stream, kind eventlog.Kind) uint64 {
	p := play
	actual := func() string { return describeActual(kind, s.site, s.enc.Buf) }
	_, e := p.peek(s, actual)
	if kind == eventlog.KindCallOut && p.level != CheckStrict && (e.Kind != kind || e.Site != s.site.Name || !bytes.Equal(e.Values, s.enc.Buf)) {
		if r := p.resync(s); r != nil {
			e = r
		}
	}
	if e.Kind != kind || e.Site != s.site.Name {
		p.diverge(&Divergence{Seq: e.Seq, Stream: s.id, Reason: "the code made a different boundary call than the log holds",
			Expected: p.describe(e), Actual: actual(), Pos: s.site.Pos, Candidate: p.candidate(s, s.replay)})
		panic(abortReplay{})
	}
	if !bytes.Equal(e.Values, s.enc.Buf) {
		d := &Divergence{Seq: e.Seq, Stream: s.id, Reason: "different arguments", Expected: p.describe(e), Actual: actual(), Pos: s.site.Pos}
		lenient := (kind == eventlog.KindCallOut && p.level != CheckStrict) || (kind == eventlog.KindCallIn && p.level == CheckCrash)
		if lenient {
			p.note(d)
		} else {
			p.diverge(d)
			panic(abortReplay{})
		}
	}
	if kind == eventlog.KindCallOut {
		notePassed(s, e.Seq)
	}
	p.consume(s)
	return e.Seq
}

// resync looks, when an outcall does not match the log's next event, for a
// later outcall of the same enclosing call with the same callee and
// arguments that has not been replayed (JINSI's resynchronisation: map
// iteration order or a select choice inside observed code changed the order
// of outcalls). If there is one, it and its outcome (with any callbacks) are
// moved to the front of the stream, a note is added, and it is returned,
// its turn taken.
func (p *player) resync(s *Stream) *eventlog.Event {
	sr := s.replay
	first := &p.events[sr.idx[sr.cur]]
	parent := first.Parent
	for k := sr.cur + 1; k < len(sr.idx); k++ {
		e := &p.events[sr.idx[k]]
		if e.Parent != parent {
			continue // inside an earlier outcall
		}
		if e.Kind == eventlog.KindReturnIn || e.Kind == eventlog.KindPanicOut || e.Kind == eventlog.KindReturnOut || e.Kind == eventlog.KindPanicIn {
			return nil // the enclosing call ends
		}
		if e.Kind != eventlog.KindCallOut || e.Site != s.site.Name || !bytes.Equal(e.Values, s.enc.Buf) {
			continue
		}
		m := k + 1
		for ; m < len(sr.idx); m++ {
			f := &p.events[sr.idx[m]]
			if (f.Kind == eventlog.KindReturnOut || f.Kind == eventlog.KindPanicIn) && f.Parent == e.Seq {
				break
			}
		}
		if m == len(sr.idx) {
			m-- // the log ends inside it
		}
		idx := make([]int, 0, len(sr.idx))
		idx = append(idx, sr.idx[:sr.cur]...)
		idx = append(idx, sr.idx[k:m+1]...)
		idx = append(idx, sr.idx[sr.cur:k]...)
		idx = append(idx, sr.idx[m+1:]...)
		sr.idx = idx
		p.mu.Lock()
		p.resynced = true
		p.report.Notes = append(p.report.Notes, fmt.Sprintf("outcall replayed out of the recorded order (check %s): %s matched seq %d instead of seq %d (%s)",
			p.level, describeActual(eventlog.KindCallOut, s.site, s.enc.Buf), e.Seq, first.Seq, p.describe(first)))
		p.mu.Unlock()
		p.waitTurn(sr.idx[sr.cur])
		return e
	}
	return nil
}

// ownGap reports whether every event not yet replayed before index i
// belongs to i's stream: events that stream postponed by resynchronising,
// which must not hold its later events back (called with p.mu held).
func (p *player) ownGap(i int) bool {
	if i < p.next {
		return false
	}
	st := p.events[i].Stream
	for j := p.next; j < i; j++ {
		if !p.consumed[j] && p.events[j].Stream != st {
			return false
		}
	}
	return true
}

// playerReturn matches the RETURN_IN of an incall.
func playerReturn(s *Stream, fr frame) {
	p := play
	s.site = fr.site
	actual := func() string { return describeActual(eventlog.KindReturnIn, fr.site, s.enc.Buf) }
	_, e := p.peek(s, actual)
	switch {
	case e.Kind == eventlog.KindReturnIn && e.Parent == fr.seq:
		if !bytes.Equal(e.Values, s.enc.Buf) {
			d := &Divergence{Seq: e.Seq, Stream: s.id, Reason: "different results", Expected: p.describe(e), Actual: actual(), Pos: fr.site.Pos}
			if p.level == CheckCrash {
				p.note(d)
			} else {
				p.diverge(d)
				panic(abortReplay{})
			}
		}
	case e.Kind == eventlog.KindPanicOut && e.Parent == fr.seq:
		d := &Divergence{Seq: e.Seq, Stream: s.id, Reason: "the incall returned where the capture panicked", Expected: p.describe(e), Actual: actual(), Pos: fr.site.Pos}
		if p.level == CheckCrash {
			p.note(d)
		} else {
			p.diverge(d)
			panic(abortReplay{})
		}
	default:
		p.diverge(&Divergence{Seq: e.Seq, Stream: s.id, Reason: "the incall returned before the log's next event", Expected: p.describe(e), Actual: actual(), Pos: fr.site.Pos,
			Candidate: p.candidate(s, s.replay)})
		panic(abortReplay{})
	}
	p.consume(s)
}

// playerPanic matches a panic leaving an incall (PANIC_OUT).
func playerPanic(s *Stream, fr frame, kind eventlog.Kind, r any) {
	p := play
	if _, ok := r.(abortReplay); ok {
		panic(r)
	}
	actual := func() string { return describeActual(kind, fr.site, s.enc.Buf) }
	_, e := p.peek(s, actual)
	vals, _ := value.Split(s.enc.Buf)
	pos := ""
	if len(vals) == 2 {
		pos, _, _ = value.RenderOne(vals[1], 0)
	}
	if e.Kind != kind || e.Parent != fr.seq {
		p.diverge(&Divergence{Seq: e.Seq, Stream: s.id, Reason: "the code panicked where the capture did not", Expected: p.describe(e), Actual: actual(), Pos: strings.Trim(pos, `"`)})
		panic(abortReplay{})
	}
	want, _ := value.Split(e.Values)
	if len(want) == 0 || len(vals) == 0 || !bytes.Equal(want[0], vals[0]) {
		p.diverge(&Divergence{Seq: e.Seq, Stream: s.id, Reason: "different panic value", Expected: p.describe(e), Actual: actual(), Pos: strings.Trim(pos, `"`)})
		panic(abortReplay{})
	}
	s.replay.lastPanicMatched = true
	p.consume(s)
}

// playerAnswer reads the outcome of outcall frame f from the log.
func playerAnswer(s *Stream, f int) {
	p := play
	fr := s.frames[f]
	s.site = fr.site
	if sr := s.replay; sr != nil && sr.cur >= len(sr.idx) && !p.cut && (p.children[s.id] || s.id != 0 && sr.driverDone != nil) {
		p.parkUnanswered(s, fr)
	}
	_, e := p.peek(s, func() string { return "waiting for the result of " + fr.site.Name })
	// Callbacks the external callee made, performed in order before the
	// outcall is answered.
	for e.Kind == eventlog.KindCallIn && e.Parent == fr.seq {
		p.performNested(s, e)
		s.site = fr.site
		_, e = p.peek(s, func() string { return "waiting for the result of " + fr.site.Name })
	}
	switch {
	case e.Kind == eventlog.KindReturnOut && e.Parent == fr.seq:
		s.dec = value.Decoder{Buf: e.Values, Resolver: p}
		p.consume(s)
	case e.Kind == eventlog.KindPanicIn && e.Parent == fr.seq:
		d := value.Decoder{Buf: e.Values, Resolver: p}
		v := value.Decode[any](&d)
		if vals, _ := value.Split(e.Values); len(vals) == 2 {
			pos, _, _ := value.RenderOne(vals[1], 0)
			s.chain.pos = strings.Trim(pos, `"`) // the site the capture recorded (panicSite)
		}
		p.consume(s)
		s.close(f)
		if v == nil {
			v = errors.New("replayed panic with an undecodable value")
		}
		panic(v)
	default:
		p.diverge(&Divergence{Seq: e.Seq, Stream: s.id, Reason: "the log does not answer this outcall", Expected: p.describe(e), Actual: "outcall " + fr.site.Name, Pos: fr.site.Pos})
		panic(abortReplay{})
	}
}

// parkUnanswered blocks, for good, a goroutine started by observed code
// whose outcall of frame fr is the last event of its stream in the log: the
// capture ended while the goroutine was inside that outcall (golang-lru's
// expirable reaper in its select, or in time.Sleep, when the test ended), so
// the log has no outcome, and the capture's goroutine never went further.
// Replay leaves it there, as the capture did, rather than reporting an
// event after the log's end; the report says so.
//
// The same holds for a driven stream other than stream 0: a goroutine that
// external code started, inside an incall, when the capture's process
// ended. The waitgroup corpus program's last fan.Work is one: its deferred
// wg.Done (an outcall) wakes main's wg.Wait, main returns and the log is
// closed before the worker records Done's RETURN_OUT and Work's RETURN_IN
// (a log in about one capture in ten; replay of it always diverged). Its
// driver is counted out of Replay's wait (driverDone).
//
// Not done for a new outcall past the log's end: the goroutine may have
// ended in the capture, and the new outcall is a divergence.
func (p *player) parkUnanswered(s *Stream, fr frame) {
	p.mu.Lock()
	child := p.children[s.id]
	if child {
		p.unanswered = append(p.unanswered, fr.site.Name)
		p.live-- // waitChildren does not wait for it
	} else {
		p.drivenStuck = append(p.drivenStuck, fr.site.Name)
	}
	p.mu.Unlock()
	p.cond.Broadcast()
	if sr := s.replay; !child && sr.driverDone != nil {
		sr.driverDone() // Replay does not wait for its driver
	}
	select {} // the harness exits once the replay has ended
}

// parkAtEnd stops, for good, the goroutine of s, which is about to make a
// boundary event past its stream's last event in a cut log (player.cut):
// the capture's goroutine went on, but the log ended before its next event,
// so there is nothing to compare that event with nor an outcome to return.
// The goroutine stops before the event, holding what it held then; by the
// cut's consistency no event in the log waited for what it did later. Its
// driver, or the goroutine started by observed code, no longer counts as
// running for Replay's end.
func (p *player) parkAtEnd(s *Stream) {
	p.mu.Lock()
	if p.done {
		p.mu.Unlock()
		p.waitTurn(-1) // the replay has ended: unwinds, or waits for the exit
	}
	p.parked = append(p.parked, s.id)
	if p.children[s.id] {
		p.live-- // waitChildren does not wait for it
	}
	started := p.started
	p.mu.Unlock()
	p.cond.Broadcast()
	if sr := s.replay; sr != nil && sr.driverDone != nil {
		sr.driverDone()
	}
	if !started && p.exits {
		p.endInInit()
	}
	select {} // the harness exits once the replay has ended
}

// endInInit ends the replay of a cut log that ended during package
// initialisation: the harness's main goroutine stopped there (parkAtEnd),
// so Replay never runs; what was replayed passed.
func (p *player) endInInit() {
	p.mu.Lock()
	p.finishLocked()
	p.report.Verdict = "pass"
	p.report.Replayed = p.replayed
	p.report.Ended = fmt.Sprintf("the log ended during package initialisation, while the process ran (state=open: its writer was killed, crashed or is still writing): replayed %d of %d events; what came after is not judged", p.replayed, len(p.events))
	p.report.Notes = append(p.report.Notes, p.report.Ended)
	r := p.report
	r.Notes = append([]string(nil), p.report.Notes...)
	p.mu.Unlock()
	writeReport(&r)
	os.Exit(0)
}

// cutStats describes where the goroutines of a cut log were when it ended.
type cutStats struct {
	complete int      // events of calls that completed (or outside any call)
	open     int      // events of the calls in progress at the log's end
	streams  []uint32 // streams that were inside a call at the log's end
}

// countCut finds, on each stream of a cut log, the calls in progress at
// its end: the events after the stream's last point outside every call
// (a top-level incall's RETURN_IN or PANIC_OUT, or for a goroutine started
// by observed code an outcall's outcome).
func (p *player) countCut() cutStats {
	var st cutStats
	for _, id := range p.order {
		sr := p.streams[id]
		depth, outside := 0, 0
		for k, i := range sr.idx {
			switch p.events[i].Kind {
			case eventlog.KindCallIn, eventlog.KindCallOut:
				depth++
			case eventlog.KindReturnIn, eventlog.KindPanicOut, eventlog.KindReturnOut, eventlog.KindPanicIn:
				depth = max(depth-1, 0)
			}
			if depth == 0 {
				outside = k + 1
			}
		}
		st.complete += outside
		if depth > 0 {
			st.open += len(sr.idx) - outside
			st.streams = append(st.streams, id)
		}
	}
	return st
}

// describeCutLocked is the report's note on a cut log that replayed to its
// end (called with p.mu held).
func (p *player) describeCutLocked() string {
	c := p.cutStats
	var b strings.Builder
	fmt.Fprintf(&b, "log ended while the process ran (state=open: its writer was killed, crashed or is still writing): replayed %d of %d events", p.replayed, len(p.events))
	if len(c.streams) == 0 {
		b.WriteString("; every goroutine was outside any call at the log's end")
	} else {
		fmt.Fprintf(&b, "; %d of them lie in calls that completed, %d in the calls of %d goroutines in progress at the log's end (streams %s), replayed up to it",
			c.complete, c.open, len(c.streams), streamList(c.streams))
	}
	if len(p.parked) > 0 {
		fmt.Fprintf(&b, "; %d goroutines went on past their stream's last event and were stopped there (streams %s): what they did after the log's end is not judged", len(p.parked), streamList(p.parked))
	} else {
		b.WriteString("; what came after the log's end is not judged")
	}
	return b.String()
}

// streamList names up to 8 streams, sorted, for a note.
func streamList(ids []uint32) string {
	s := append([]uint32(nil), ids...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	var parts []string
	for k, id := range s {
		if k == 8 {
			parts = append(parts, fmt.Sprintf("and %d more", len(s)-k))
			break
		}
		parts = append(parts, fmt.Sprint(id))
	}
	return strings.Join(parts, ", ")
}

// playerDone checks that the recorded results fitted the call's results.
func playerDone(s *Stream, fr frame) {
	if s.dec.Err != nil || s.dec.Off != len(s.dec.Buf) {
		p := play
		why := "results left over"
		if s.dec.Err != nil {
			why = s.dec.Err.Error()
		}
		reason := "the recorded results do not fit the results of " + fr.site.Name + " (signature changed, or a type it names no longer registered?): "
		if errors.Is(s.dec.Err, value.ErrFirstFieldFirst) {
			reason = "the recorded results of " + fr.site.Name + " name an object replay cannot rebuild (a known limitation, not a code change): "
		}
		d := &Divergence{Stream: s.id, Reason: reason + why,
			Pos: fr.site.Pos, Actual: "outcall " + fr.site.Name}
		if sr := s.replay; sr != nil && sr.cur > 0 && sr.cur <= len(sr.idx) {
			// The event whose values were being read: the last one consumed.
			e := &p.events[sr.idx[sr.cur-1]]
			d.Seq, d.Expected = e.Seq, p.describe(e)
		}
		p.diverge(d)
		panic(abortReplay{})
	}
}

func argsMismatch(s *Stream) {
	p := play
	why := "arguments left over"
	if s.dec.Err != nil {
		why = s.dec.Err.Error()
	}
	reason := "the recorded arguments do not fit this build's function (signature changed?): "
	if errors.Is(s.dec.Err, value.ErrFirstFieldFirst) {
		reason = "the recorded arguments name an object replay cannot rebuild (a known limitation, not a code change): "
	}
	d := &Divergence{Stream: s.id, Reason: reason + why}
	if s.replay != nil && s.replay.cur < len(s.replay.idx) {
		e := &p.events[s.replay.idx[s.replay.cur]]
		d.Seq, d.Expected = e.Seq, p.describe(e)
	}
	if s.site != nil {
		d.Actual, d.Pos = "incall "+s.site.Name, s.site.Pos
	}
	p.diverge(d)
}

func (p *player) note(d *Divergence) {
	p.mu.Lock()
	p.report.Notes = append(p.report.Notes, fmt.Sprintf("ignored at check level %s: %s", p.level, d.String()))
	p.mu.Unlock()
}

func (p *player) diverge(d *Divergence) {
	p.mu.Lock()
	first := p.divergeLocked(d)
	p.mu.Unlock()
	p.cond.Broadcast()
	if first {
		p.abort(d)
	} else if p.exits {
		// Another goroutine reported first and is writing the report
		// before it ends the process. Unwinding this one could crash the
		// process first: a goroutine external code started (sync's
		// WaitGroup.Go re-panics what its function raised) does not
		// recover the abort. Wait for the exit instead.
		select {}
	}
}

func (p *player) divergeLocked(d *Divergence) bool {
	if p.done {
		return false
	}
	if p.cut {
		p.report.Notes = append(p.report.Notes, fmt.Sprintf("the log was not closed (state=open: its writer was killed, crashed or is still writing); the divergence lies within the %d events it holds", len(p.events)))
		if len(p.parked) > 0 {
			p.report.Notes = append(p.report.Notes, fmt.Sprintf("%d goroutines had gone on past the last event of their stream and were stopped there (streams %s)", len(p.parked), streamList(p.parked)))
		}
	}
	p.finishLocked()
	if note := value.RedactionNote(d.Actual); note != "" {
		d.Reason += "; " + note
	}
	p.report.Verdict = "diverged"
	p.report.Divergence = d
	p.report.Replayed = p.replayed
	return true
}

// finishLocked ends the replay (called with p.mu held, once).
func (p *player) finishLocked() {
	p.done = true
	close(p.stopped)
	p.wakeAllLocked()
}

func (p *player) exitOnDivergence(d *Divergence) {
	fmt.Fprint(os.Stderr, d.String())
	p.mu.Lock()
	r := p.report
	p.mu.Unlock()
	writeReport(&r)
	os.Exit(1)
}

// reportMu serialises writeReport: two goroutines can end a replay at once
// (a diverging goroutine exits while the main goroutine reports the end of
// the log). With one shared temporary file, the second writer truncated the
// file the first was renaming into place, and the first's os.Exit left an
// empty report (TestConcurrentReportsStayWhole).
var reportMu sync.Mutex

func writeReport(r *Report) {
	path := os.Getenv(EnvReplayReport)
	if path == "" {
		return
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		fmt.Fprintf(os.Stderr, "replay: encoding the report: %v\n", err)
		return
	}
	reportMu.Lock()
	defer reportMu.Unlock()
	// Write a temporary file of this call's own, then rename: a reader never
	// sees half a report, even if the process dies while writing it.
	err = writeFileAtomic(path, b)
	if err != nil {
		fmt.Fprintf(os.Stderr, "replay: writing the report: %v\n", err)
	}
}

func writeFileAtomic(path string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// Main is the body of a replay harness: run by the parent with log paths it
// replays each in a child process; run as a child it replays its log.
// It returns the process exit code.
func Main() int {
	if play == nil {
		fmt.Fprintln(os.Stderr, "replay: "+EnvReplayLog+" is not set (run the harness through `capture replay`)")
		return 2
	}
	r := Replay()
	writeReport(r)
	if path := os.Getenv(EnvReplayTrace); path != "" {
		if err := os.WriteFile(path, []byte(strings.Join(Trace(), "\n")+"\n"), 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "replay: writing the trace: %v\n", err)
		}
	}
	if r.Verdict != "pass" {
		if r.Divergence != nil {
			fmt.Fprint(os.Stderr, r.Divergence.String())
		}
		return 1
	}
	return 0
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

// playerRead matches a READ_OUT and sets the recorded value to decode.
func playerRead(s *Stream) {
	p := play
	actual := func() string { return describeActual(eventlog.KindReadOut, s.site, nil) }
	_, e := p.peek(s, actual)
	if e.Kind != eventlog.KindReadOut || e.Site != s.site.Name {
		p.diverge(&Divergence{Seq: e.Seq, Stream: s.id, Reason: "the code read a different variable than the log holds",
			Expected: p.describe(e), Actual: actual(), Pos: s.site.Pos, Candidate: p.candidate(s, s.replay)})
		panic(abortReplay{})
	}
	s.dec = value.Decoder{Buf: e.Values, Resolver: p}
	p.consume(s)
}
