package probe

import (
	"testing"
	"time"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

// stallTestPlayer is a player of a log whose events alternate between
// streams 1 and 2 (index i on stream 1+i%2), ready for waitTurn and
// release without the watchdog.
func stallTestPlayer(n int) *player {
	p := newPlayer()
	for i := range n {
		p.add(eventlog.Event{Seq: uint64(i + 1), Stream: uint32(1 + i%2), Kind: eventlog.KindCallOut, Site: "example.com/s.F"})
	}
	p.waiting = map[int]int{}
	return p
}

// waitUntil waits until cond holds (called with p.mu held).
func waitUntil(t *testing.T, p *player, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		p.mu.Lock()
		ok := cond()
		p.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
	}
}

// waitingFor waits until a goroutine waits in waitTurn for event i.
func waitingFor(t *testing.T, p *player, i int) {
	t.Helper()
	waitUntil(t, p, func() bool { return p.waiting[i] > 0 })
}

// stall does what the watchdog does on a deadlock: the earliest waiting
// event may go.
func stall(p *player) {
	p.mu.Lock()
	p.stalled = true
	p.wakeAllLocked()
	p.mu.Unlock()
}

func relaxedCount(p *player) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.relaxed
}

// TestStallLetGoReleasedInOrder: a goroutine let go by a stall before its
// event's turn (drive lets an incall's goroutine go before its CALL_IN,
// which then waits for its turn again) whose event is released in the
// recorded order after all is not counted as out of order; the report's
// note would say that events were replayed out of order when none was (the
// flake of the conc64 corpus program's 100 replays on a loaded machine).
func TestStallLetGoReleasedInOrder(t *testing.T) {
	p := stallTestPlayer(2)
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.waitTurn(1) // let go by the stall
		p.waitTurn(1) // waits for its turn again (the CALL_IN's)
		p.release(1)
	}()
	waitingFor(t, p, 1)
	stall(p)
	// Let go (the stall is taken), then waiting again.
	waitUntil(t, p, func() bool { return !p.stalled && p.waiting[1] > 0 })
	p.waitTurn(0)
	p.release(0)
	<-done
	if n := relaxedCount(p); n != 0 {
		t.Fatalf("relaxed = %d, want 0: both events were released in the recorded order", n)
	}
}

// TestStallLetGoReleasedOutOfOrder: an event released while an earlier
// event of another stream is not is counted, once.
func TestStallLetGoReleasedOutOfOrder(t *testing.T) {
	p := stallTestPlayer(2)
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.waitTurn(1)
		p.release(1)
	}()
	waitingFor(t, p, 1)
	stall(p)
	<-done
	p.waitTurn(0)
	p.release(0)
	if n := relaxedCount(p); n != 1 {
		t.Fatalf("relaxed = %d, want 1", n)
	}
	if p.next != 2 {
		t.Fatalf("next = %d, want 2", p.next)
	}
}

// TestStallEndsAtRelease: a stall the watchdog saw ends with the next
// release, so that a goroutine woken later does not jump the order on a
// stall that is over (the goroutine whose event was next went in order).
func TestStallEndsAtRelease(t *testing.T) {
	p := stallTestPlayer(2)
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.waitTurn(1)
	}()
	waitingFor(t, p, 1)
	p.mu.Lock()
	p.stalled = true // seen, but no goroutine woken yet
	p.mu.Unlock()
	p.waitTurn(0)
	p.release(0) // event 1 is next: its goroutine goes in order
	<-done
	p.release(1)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stalled {
		t.Fatal("the stall outlived the releases that ended it")
	}
	if p.relaxed != 0 {
		t.Fatalf("relaxed = %d, want 0", p.relaxed)
	}
}

// TestDumpBlockedRuntimeSemaphore: a goroutine the runtime holds on one of
// its own semaphores (a collection starting while the watchdog's dump
// stops the world: the player's first pass over the log, allocating) is
// not blocked; the watchdog took such dumps, twice in a row, for a
// deadlock, and let an event go before its turn (a CALL_IN decoded the
// receiver before the RETURN_IN that numbered it: "different arguments").
// A wait on a semaphore of package sync or internal/poll is.
func TestDumpBlockedRuntimeSemaphore(t *testing.T) {
	const self = "goroutine 20 [running]:\ngithub.com/rules-capture/rules_capture/runtime/probe.(*player).watchdog(0xc00019c908, 0xc0000dc000)\n\t/x/player.go:818 +0x857\n\n"
	const waiting = "goroutine 49 [sync.Cond.Wait]:\nsync.runtime_notifyListWait(0xc0003ba7d0, 0x0)\n\t/usr/local/go/src/runtime/sema.go:617 +0x1b3\n\n" +
		"goroutine 1 [select]:\ngithub.com/rules-capture/rules_capture/runtime/probe.Replay()\n\t/x/player.go:382 +0xc50\n\n"
	for _, c := range []struct {
		name, g string
		blocked bool
	}{
		{"runtime semaphore (collection starting)", "goroutine 99 [semacquire]:\ngithub.com/rules-capture/rules_capture/runtime/probe.(*player).computeFirstAppearances(0xc000194908)\n\t/x/numbering.go:43 +0x3de\n", false},
		{"sync semaphore", "goroutine 7 [semacquire, 2 minutes]:\nsync.runtime_Semacquire(0xc0000a65b8)\n\t/usr/local/go/src/runtime/sema.go:71 +0x25\n", true},
		{"poll semaphore", "goroutine 8 [semacquire]:\ninternal/poll.runtime_Semacquire(0xc0000a65b8)\n\t/usr/local/go/src/runtime/sema.go:76 +0x25\n", true},
		{"mutex", "goroutine 118 [sync.Mutex.Lock]:\ninternal/sync.runtime_SemacquireMutex(0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/sema.go:95 +0x25\n", true},
		{"runnable", "goroutine 121 [runnable]:\nexample.com/conc64/orders.tax()\n\t/x/orders.go:119 +0xf0\n", false},
	} {
		if got := dumpBlocked([]byte(self + waiting + c.g)); got != c.blocked {
			t.Errorf("%s: dumpBlocked = %v, want %v", c.name, got, c.blocked)
		}
	}
	if !dumpBlocked([]byte(self + waiting)) {
		t.Error("goroutines waiting on a condition and a select: want blocked")
	}
}

// TestStallOver: the watchdog's decision. A replay whose goroutines run
// reports a stall only once it has used CPU as an endless loop does, or
// after stallWallFactor limits; one starved of CPU on a loaded machine
// (go-cmp's cmp.TestDiff replayed at load 20 on 2 CPUs: 10 s of wall time,
// a few seconds of CPU) goes on.
func TestStallOver(t *testing.T) {
	const limit = 10 * time.Second
	for _, c := range []struct {
		name      string
		idle, cpu time.Duration
		blocked   bool
		want      bool
	}{
		{"blocked, under the limit", 9 * time.Second, 0, true, false},
		{"blocked, at the limit", limit, 0, true, true},
		{"endless loop", limit, limit, false, true},
		{"endless loop on a loaded machine", 2 * limit, limit / 2, false, true},
		{"starved of CPU", limit + 77*time.Millisecond, 4 * time.Second, false, false},
		{"running, under the limit", 9 * time.Second, 9 * time.Second, false, false},
		{"asleep or in a system call for long", stallWallFactor * limit, 0, false, true},
		{"asleep, under the wall bound", stallWallFactor*limit - time.Second, 0, false, false},
	} {
		if got := stallOver(limit, c.idle, c.cpu, c.blocked); got != c.want {
			t.Errorf("%s: stallOver(%v, idle %v, cpu %v, blocked %v) = %v, want %v", c.name, limit, c.idle, c.cpu, c.blocked, got, c.want)
		}
	}
}
