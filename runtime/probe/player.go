package probe

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

type streamReplay struct {
	id    uint32
	total int // the stream's events in the log
	cur   int // the next one: position in the stream, from 0

	// The stream's events read so far (window.go): q holds those from
	// position off on (dropped from the front as the stream goes on),
	// pending those read since the stream's goroutine last took them
	// (under player.load.mu).
	q       []qent
	off     int
	pending []qent
	lastRel qent // the stream's released event of the highest index

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
	// driverEnded is set when driverDone has run: the stream's driver is
	// out of Replay's wait (leftRunningLocked).
	driverEnded atomic.Bool
}

type player struct {
	format       int                     // the log's format version (value.LastWholeObjectFormat)
	funcStandIns map[unsafe.Pointer]bool // closures of stand-ins for recorded function values (under objMu)
	freshFuncs   []freshFunc             // function values numbered afresh since the last comparison (funcids.go; under objMu)
	nFresh       atomic.Int32            // len(freshFuncs)
	// Addresses of functions from outside matched to the capture's, one
	// to one (codepc.go; under objMu, made at the first match).
	pcToLog      map[uintptr]uint64
	pcFromLog    map[uint64]uintptr
	mu           sync.Mutex
	cond         *sync.Cond
	win          atomic.Pointer[window] // the events held (window.go)
	load         loader
	total        int // events in the log
	streams      map[uint32]*streamReplay
	order        []uint32
	next         int             // index of the first event not yet replayed
	nextA        atomic.Int64    // next, for the loader (without p.mu)
	releases     atomic.Int64    // events released, for the loader (without p.mu)
	replayed     int             // events replayed
	waiting      map[int]int     // indices goroutines wait to replay
	stalled      bool            // deadlocked: let the earliest waiter go
	quiet        int             // goroutines in waitQuiet (a timed wait)
	resynced     bool            // a stream replayed events out of order (resync)
	relaxed      int             // events released before an earlier event of another stream (release)
	orphans      int             // events skipped: no incall encloses them
	unanswered   []string        // sites of outcalls left blocked: the capture ended inside them (parkUnanswered)
	drivenStuck  []string        // the same, on driven streams (goroutines external code started)
	unreturned   []string        // sites of incalls left unreturned on driven streams: the capture ended inside them (parkUnreturned)
	leftRunning  []string        // driven streams still running a stall after the log's last event (Replay)
	skipped      map[uint64]bool // CALL_OUTs among them
	children     map[uint32]bool // streams of goroutines started by observed code (GO)
	live         int             // such goroutines running in replay
	level        string
	report       Report
	done         bool                   // a divergence was reported, or the log ended with a panic
	stopped      chan struct{}          // closed when done is set
	stall        time.Duration          // no release for this long is a deadlock
	trace        []string               // events in release order, when tracing
	chanCount    map[uint64]uint64      // receives made at turn sites, by channel number in the log (chanturn.go)
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

	seg *segment // the log's checkpoints (checkpoint_replay.go)

	objMu sync.Mutex
	first firstAppearances // numbering.go
	byID  map[uint64]reflect.Value
	// premade: objects made before they crossed, as the object another
	// one lies in (replay_located.go).
	premade map[uint64]bool
	// unplaced: objects the log locates in another one that replay made
	// apart (replay_located.go).
	unplaced map[uint64]bool
	ids      map[unsafe.Pointer]objInfo
	maxID    uint64

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

func install(p *player) {
	p.waiting = map[int]int{}
	play = p
	replaying = true
	value.SetReplayRedaction()
	leaveWhole = p.format <= value.LastWholeObjectFormat
	value.SetBarePointees(p.format <= value.LastBarePointeeFormat)
	value.SetPerLevelDepth(p.format <= value.LastPerLevelDepthFormat)
	value.SetUntiedEmbeds(p.format <= value.LastUntiedEmbedFormat)
	value.SetPlainCollectionErrors(p.format <= value.LastPlainCollectionErrorFormat)
	enabled.Store(true)
	s0 := &Stream{id: 0, replay: p.stream(0)}
	bind(getg(), s0)
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
	if r := p.restoreSegment(); r != nil {
		return r
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
		sr.driverDone = sync.OnceFunc(func() { sr.driverEnded.Store(true); wg.Done() })
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
	sr0 := s0.replay
	sr0.driverDone = sync.OnceFunc(func() { sr0.driverEnded.Store(true); wg.Done() })
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
	var exhausted, released <-chan struct{}
	if p.cut {
		exhausted = p.exhausted
	} else {
		released = p.exhausted
	}
	select {
	case <-finished:
	case <-released:
		// Every event of the log is replayed, and every incall the log
		// saw return has returned. A driven goroutine still running is
		// inside an incall the capture ended in (the process exited while
		// it ran: decimal's TestDecimal_ExtremeValues abandons goroutines
		// computing 10^(2^31)), on code past the log's end of its stream.
		// It gets as long as a stall to come back (a return past the end,
		// parkUnreturned, or an event the log lacks, a divergence); then
		// replay leaves it running, as the capture's process did, instead
		// of waiting for it without end (TestLeftRunningAtEnd).
		select {
		case <-finished:
		case <-p.stopped:
			select {
			case <-finished:
			case <-time.After(2 * time.Second):
			}
		case <-time.After(p.stall):
			p.mu.Lock()
			p.leftRunning = p.leftRunningLocked()
			p.mu.Unlock()
		}
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
	if !p.done && p.next < p.total {
		e := p.ev(p.next)
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
	if len(p.unreturned) > 0 {
		p.report.Notes = append(p.report.Notes, fmt.Sprintf("%d goroutines that external code started were inside an incall when the capture ended (the log has its CALL_IN, not its return: the process ended while they ran): replay left them there (%s)", len(p.unreturned), strings.Join(p.unreturned, ", ")))
	}
	if len(p.leftRunning) > 0 && !p.done {
		p.report.Notes = append(p.report.Notes, fmt.Sprintf("%d goroutines that external code started were still running %v after every event of the log was replayed, inside an incall the capture ended in (the log has its CALL_IN, not its return: the process ended while they ran): replay left them running (%s)", len(p.leftRunning), p.stall, strings.Join(p.leftRunning, ", ")))
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
	return append([]string(nil), p.trace...)
}
