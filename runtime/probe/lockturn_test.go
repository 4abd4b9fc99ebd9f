package probe

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// lockTurnValues decodes a LOCK_TURN's values.
func lockTurnValues(t testing.TB, e eventlog.Event) (num, writes, reads uint64, acquired bool) {
	t.Helper()
	d := value.Decoder{Buf: e.Values}
	num, writes, reads, acquired = d.Uint(), d.Uint(), d.Uint(), d.Bool()
	if d.Err != nil {
		t.Fatalf("LOCK_TURN values: %v", d.Err)
	}
	return
}

// captureConcurrent captures what the workers do, each on a goroutine of
// its own that runs observed code, and returns the events in log order.
func captureConcurrent(t *testing.T, workers int, work func(w int)) []eventlog.Event {
	var mu sync.Mutex
	var events []eventlog.Event
	CaptureTo(func(e *eventlog.Event) uint64 {
		mu.Lock()
		defer mu.Unlock()
		c := *e
		c.Values = append([]byte(nil), e.Values...)
		c.Seq = uint64(len(events) + 1)
		events = append(events, c)
		return c.Seq
	})
	defer CaptureTo(nil)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			s := current()
			s.inside = true
			defer func() { s.inside = false }()
			work(w)
		})
	}
	wg.Wait()
	return events
}

// TestLockTurnsCaptureCounts: the LOCK_TURNs of a Mutex count its
// acquisitions in log order; those of an RWMutex count writes, carry the
// reads since the previous write, and a read carries the writes before it;
// a failed try is recorded as such.
func TestLockTurnsCaptureCounts(t *testing.T) {
	lockSite := &Site{Name: "mu.Lock"}
	wSite, rSite, trySite := &Site{Name: "rw.Lock"}, &Site{Name: "rw.RLock"}, &Site{Name: "mu.TryLock"}
	var mu sync.Mutex
	var rw sync.RWMutex
	events := captureConcurrent(t, 4, func(w int) {
		for range 50 {
			Lock(lockSite, &mu)
			mu.Unlock()
			if w%2 == 0 {
				RWLock(wSite, &rw)
				rw.Unlock()
			} else {
				RLock(rSite, &rw)
				rw.RUnlock()
			}
		}
	})
	// A failed try: the lock is held by another goroutine.
	mu.Lock()
	tryEvents := captureConcurrent(t, 1, func(int) {
		if TryLock(trySite, &mu) {
			t.Error("TryLock of a held lock succeeded")
		}
	})
	mu.Unlock()

	var muCount, rwWrites, rwReads uint64
	// The ranks the reads since the last write carry: readers share the
	// lock, so two of them may record their turns in either order (the
	// second reader's event before the first's), but between two writes
	// the ranks are 1..n, each once, and the next write carries n.
	ranks := map[uint64]bool{}
	allRanks := func(seq uint64) {
		for r := uint64(1); r <= rwReads; r++ {
			if !ranks[r] {
				t.Fatalf("event %d: the %d reads before it carry ranks %v, want 1..%d", seq, rwReads, ranks, rwReads)
			}
		}
	}
	nums := map[string]uint64{}
	for _, e := range events {
		if e.Kind != eventlog.KindLockTurn {
			t.Fatalf("event %d: kind %s", e.Seq, e.Kind)
		}
		num, writes, reads, acquired := lockTurnValues(t, e)
		lock := strings.Split(e.Site, ".")[0]
		if n, ok := nums[lock]; ok && n != num {
			t.Fatalf("event %d: lock %s numbered %d, earlier %d", e.Seq, lock, num, n)
		}
		nums[lock] = num
		if !acquired {
			t.Fatalf("event %d: not acquired", e.Seq)
		}
		switch e.Site {
		case "mu.Lock":
			muCount++
			if writes != muCount || reads != 0 {
				t.Fatalf("event %d: mu.Lock writes=%d reads=%d, want %d, 0", e.Seq, writes, reads, muCount)
			}
		case "rw.Lock":
			rwWrites++
			if writes != rwWrites || reads != rwReads {
				t.Fatalf("event %d: rw.Lock writes=%d reads=%d, want %d, %d", e.Seq, writes, reads, rwWrites, rwReads)
			}
			allRanks(e.Seq)
			rwReads = 0
			clear(ranks)
		case "rw.RLock":
			rwReads++
			if writes != rwWrites || reads == 0 || ranks[reads] {
				t.Fatalf("event %d: rw.RLock writes=%d reads=%d, want %d and a rank not yet carried since that write (%v)", e.Seq, writes, reads, rwWrites, ranks)
			}
			ranks[reads] = true
		}
	}
	allRanks(uint64(len(events)))
	if muCount != 200 || rwWrites != 100 || nums["mu"] == nums["rw"] {
		t.Fatalf("counted %d mu.Lock, %d rw.Lock, numbers %v", muCount, rwWrites, nums)
	}
	if len(tryEvents) != 1 {
		t.Fatalf("failed try: %d events", len(tryEvents))
	}
	num, writes, _, acquired := lockTurnValues(t, tryEvents[0])
	if acquired || num != nums["mu"] || writes != muCount {
		t.Fatalf("failed try recorded lock %d writes %d acquired %v, want lock %d writes %d not acquired", num, writes, acquired, nums["mu"], muCount)
	}
}

// lockTurnPlayer installs a player of events (streams 1..n) for replaying
// lock turns without drivers or watchdog, and undoes it at the end.
func lockTurnPlayer(t *testing.T, events []eventlog.Event) *player {
	p := newPlayer()
	for _, e := range events {
		p.add(e)
	}
	p.waiting = map[int]int{}
	p.hasLockTurns = true
	p.abort = func(*Divergence) {}
	p.exits = false
	oldPlay, oldEnabled := play, enabled.Load()
	play, replaying = p, true
	enabled.Store(true)
	t.Cleanup(func() {
		play, replaying = oldPlay, false
		enabled.Store(oldEnabled)
	})
	return p
}

// asStream runs f on a goroutine bound to the replay of stream id, as
// observed code.
func asStream(p *player, id uint32, f func()) {
	bind(getg(), &Stream{id: id, replay: p.streams[id], inside: true})
	defer bind(getg(), nil)
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(abortReplay); !ok {
				panic(r)
			}
		}
	}()
	f()
}

// lockEvent is a LOCK_TURN of stream at site.
func lockEvent(seq uint64, stream uint32, site string, num, writes, reads uint64, acquired bool) eventlog.Event {
	var b []byte
	b = value.AppendUint(b, num)
	b = value.AppendUint(b, writes)
	b = value.AppendUint(b, reads)
	b = value.AppendBool(b, acquired)
	return eventlog.Event{Seq: seq, Stream: stream, Kind: eventlog.KindLockTurn, Site: site, Values: b}
}

// TestLockTurnsReplayOrder: replay gives each acquisition to the stream
// that made it in the capture, whatever order the goroutines arrive in:
// writes in their order, reads after the writes they followed, a failed
// try fails, a try that succeeded waits for the lock.
func TestLockTurnsReplayOrder(t *testing.T) {
	// The capture: stream 3 wrote first, then stream 1 and 2 read, then
	// stream 2 wrote (after those 2 reads), then stream 1 tried and failed
	// while 2 held the lock, then stream 1 tried again and won it.
	events := []eventlog.Event{
		lockEvent(1, 3, "rw.Lock", 1, 1, 0, true),
		lockEvent(2, 1, "rw.RLock", 1, 1, 1, true),
		lockEvent(3, 2, "rw.RLock", 1, 1, 2, true),
		lockEvent(4, 2, "rw.Lock", 1, 2, 2, true),
		lockEvent(5, 1, "rw.TryLock", 1, 2, 0, false),
		lockEvent(6, 1, "rw.TryLock", 1, 3, 0, true),
	}
	for round := range 20 {
		p := lockTurnPlayer(t, events)
		var rw sync.RWMutex
		var mu sync.Mutex
		var order []string
		note := func(s string) {
			mu.Lock()
			order = append(order, s)
			mu.Unlock()
		}
		site := func(name string) *Site { return &Site{Name: name} }
		var wg sync.WaitGroup
		// Start them in another order each round.
		starts := []func(){
			func() {
				asStream(p, 1, func() {
					RLock(site("rw.RLock"), &rw)
					note("1 read")
					rw.RUnlock()
					if TryLock := RWTryLock(site("rw.TryLock"), &rw); TryLock {
						t.Error("stream 1's first try succeeded; the capture's failed")
					}
					if !RWTryLock(site("rw.TryLock"), &rw) {
						t.Error("stream 1's second try failed; the capture's succeeded")
					}
					note("1 write")
					rw.Unlock()
				})
			},
			func() {
				asStream(p, 2, func() {
					RLock(site("rw.RLock"), &rw)
					note("2 read")
					rw.RUnlock()
					RWLock(site("rw.Lock"), &rw)
					note("2 write")
					time.Sleep(time.Millisecond) // holds it while 1 tries
					rw.Unlock()
				})
			},
			func() {
				asStream(p, 3, func() {
					RWLock(site("rw.Lock"), &rw)
					note("3 write")
					rw.Unlock()
				})
			},
		}
		for k := range starts {
			f := starts[(k+round)%len(starts)]
			wg.Go(f)
			if round%2 == 1 {
				time.Sleep(100 * time.Microsecond)
			}
		}
		wg.Wait()
		if p.report.Divergence != nil {
			t.Fatalf("round %d: divergence %+v", round, p.report.Divergence)
		}
		// The two reads share the lock: either order.
		if order[0] != "3 write" || !slices.Equal(order[3:], []string{"2 write", "1 write"}) {
			t.Fatalf("round %d: order %v", round, order)
		}
		if p.next != len(events) {
			t.Fatalf("round %d: %d of %d events released", round, p.next, len(events))
		}
	}
}

// TestLockTurnNeverComes: an acquisition whose turn never comes (the
// stream that made the earlier one in the capture no longer takes the
// lock) is a divergence that names the waiting acquisition, not a hang.
func TestLockTurnNeverComes(t *testing.T) {
	events := []eventlog.Event{
		lockEvent(1, 1, "mu.Lock", 1, 1, 0, true),
		{Seq: 2, Stream: 1, Kind: eventlog.KindCallOut, Site: "example.com/s.F"},
		lockEvent(3, 2, "mu.Lock", 1, 2, 0, true),
	}
	p := lockTurnPlayer(t, events)
	var mu sync.Mutex
	stop := make(chan struct{})
	defer close(stop)
	go p.watchdog(stop)
	done := make(chan struct{})
	go func() {
		defer close(done)
		asStream(p, 2, func() {
			Lock(&Site{Name: "mu.Lock"}, &mu) // waits for write 1, which never comes
			t.Error("the acquisition went ahead of its turn")
		})
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("replay hangs")
	}
	d := p.report.Divergence
	if d == nil {
		t.Fatal("no divergence")
	}
	want := "stream 2 waits for its turn on lock 1 at seq 3 (mu.Lock : write 2; replayed so far: 0 writes"
	if !strings.Contains(d.Actual, want) || !strings.HasPrefix(d.Reason, "deadlock") {
		t.Fatalf("divergence %q / %q, want a deadlock naming %q", d.Reason, d.Actual, want)
	}
}

// TestLockTurnOtherLock: an acquisition of another lock than the one the
// log numbers at that turn is a divergence at its event.
func TestLockTurnOtherLock(t *testing.T) {
	events := []eventlog.Event{
		lockEvent(1, 1, "mu.Lock", 1, 1, 0, true),
		lockEvent(2, 1, "mu.Lock", 1, 2, 0, true),
	}
	p := lockTurnPlayer(t, events)
	var a, b sync.Mutex
	asStream(p, 1, func() {
		Lock(&Site{Name: "mu.Lock", Pos: "x.go:1"}, &a)
		a.Unlock()
		Lock(&Site{Name: "mu.Lock", Pos: "x.go:2"}, &b)
		t.Error("the other lock was taken")
	})
	d := p.report.Divergence
	if d == nil || d.Seq != 2 || !strings.Contains(d.Reason, "another lock") || d.Pos != "x.go:2" {
		t.Fatalf("divergence %+v, want one at seq 2 about another lock at x.go:2", d)
	}
}

// TestLockTurnsOldLog: a log without LOCK_TURN events (written before lock
// turns) replays acquisitions natively.
func TestLockTurnsOldLog(t *testing.T) {
	p := lockTurnPlayer(t, []eventlog.Event{{Seq: 1, Stream: 1, Kind: eventlog.KindCallOut, Site: "example.com/s.F"}})
	p.hasLockTurns = false
	var mu sync.Mutex
	asStream(p, 1, func() {
		Lock(&Site{Name: "mu.Lock"}, &mu)
		mu.Unlock()
		if !TryLock(&Site{Name: "mu.TryLock"}, &mu) {
			t.Error("TryLock of a free lock failed")
		}
	})
	if p.next != 0 || p.report.Divergence != nil {
		t.Fatalf("next = %d, divergence %+v", p.next, p.report.Divergence)
	}
}

// BenchmarkLockTurn: an uncontended Lock/Unlock pair in observed code.
// "native" is the pair without probes, "off" the turn site with capture
// off, "capture" records every acquisition's LOCK_TURN (to a sink that
// drops it: the log writer's cost is the same for every event kind and is
// measured by runtime/eventlog's benchmarks), "capture-log" to a log.
func BenchmarkLockTurn(b *testing.B) {
	site := &Site{Name: "mu.Lock", Pos: "bench.go:1"}
	var mu sync.Mutex
	b.Run("native", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			mu.Lock()
			mu.Unlock()
		}
	})
	b.Run("off", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Lock(site, &mu)
			mu.Unlock()
		}
	})
	b.Run("capture", func(b *testing.B) {
		CaptureTo(func(*eventlog.Event) uint64 { return 1 })
		defer CaptureTo(nil)
		inside(b)
		b.ReportAllocs()
		for b.Loop() {
			Lock(site, &mu)
			mu.Unlock()
		}
	})
	b.Run("capture-log", func(b *testing.B) {
		if _, err := CaptureWith(fmt.Sprintf("%s/lock.arrow", b.TempDir()), eventlog.Options{}); err != nil {
			b.Fatal(err)
		}
		defer Close()
		inside(b)
		b.ReportAllocs()
		for b.Loop() {
			Lock(site, &mu)
			mu.Unlock()
		}
	})
}
