package probe

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
	"weak"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// Lock turns (docs/design/boundary-model.md, "Lock turns"; corpus lockpool).
//
// A sync.Mutex or sync.RWMutex of the observed set (a field of an observed
// type, a package variable, a local its goroutines share) is operated
// natively, so nothing at the boundary says which goroutine took it first:
// workers appending to a slice under a lock leave it in the order they
// got the lock, and later work that picks from it by index (loadgen's
// order pool) sees another slice in replay. So every acquisition in
// observed code (Lock, RLock, TryLock, TryRLock, rewritten by the
// transform into the functions below) is numbered per lock:
//
//   - capture: once the lock is held, its counts are recorded as a
//     LOCK_TURN event of the acquiring stream (Values: the lock's number,
//     writes, reads, acquired). A write acquisition counts itself among
//     the writes and carries the reads since the previous write; a read
//     carries the writes before it and its rank among the reads since; a
//     TryLock or TryRLock that failed carries the counts it saw. The
//     counts are kept under the lock itself (writes) or atomically (reads,
//     which share it), so they follow the order the lock was granted in.
//   - replay: the acquisition waits until the lock's replayed counts reach
//     the recorded ones (a write: every earlier write and the reads between;
//     a read: the writes before it; a failed try: the counts it saw), then
//     acquires natively (a TryLock that succeeded blocks: the capture's
//     holder let it go before), and releases its event in the global order.
//     The same goroutine then wins the same acquisition. The wait is on the
//     lock's counts, not the global order: the holder's events before its
//     unlock may come after the LOCK_TURN in the log.
//
// Readers among themselves are not ordered (they share the lock). Unlock
// is native: the next acquisition's turn orders it.

// EnvLockTurns set to "off" records no LOCK_TURN: the log then replays
// as one written before lock turns (lock order not reproduced). For
// measuring their cost and for showing what they fix.
const EnvLockTurns = "CAPTURE_LOCK_TURNS"

// noLockTurns: lock turn sites are native in this capture (EnvLockTurns).
var noLockTurns = os.Getenv(EnvLockTurns) == "off"

// lockTurns is the capture's state of one lock acquired at turn sites.
type lockTurns struct {
	id     uint64        // the lock's number in the log
	writes atomic.Uint64 // write acquisitions (Lock, TryLock that succeeded)
	reads  atomic.Uint64 // read acquisitions since the last write acquisition
}

// turnLocks maps locks (by address, with a weak pointer that tells a live
// lock from a collected one whose address was reused) to their state, in
// shards so that goroutines taking different locks rarely meet here.
var turnLocks [64]lockShard

type lockShard struct {
	mu sync.Mutex
	m  map[uintptr]lockEntry
	_  [48]byte // one shard per cache line
}

var lockNumbers atomic.Uint64

type lockEntry struct {
	wp weak.Pointer[byte]
	st *lockTurns
}

func lockTurnsOf(p unsafe.Pointer) *lockTurns {
	a := uintptr(p)
	sh := &turnLocks[(a>>3^a>>9)%uintptr(len(turnLocks))]
	sh.mu.Lock()
	if e, ok := sh.m[a]; ok && weakIs(e.wp, p) {
		sh.mu.Unlock()
		return e.st
	}
	if sh.m == nil {
		sh.m = map[uintptr]lockEntry{}
	}
	e := lockEntry{wp: weak.Make((*byte)(p)), st: &lockTurns{id: lockNumbers.Add(1)}}
	sh.m[a] = e
	sh.mu.Unlock()
	addLockCleanup(p, lockCell{a, e.st})
	return e.st
}

// lockCell is what a lock's cleanup needs to remove its entry.
type lockCell struct {
	addr uintptr
	st   *lockTurns
}

func forgetLock(c lockCell) {
	sh := &turnLocks[(c.addr>>3^c.addr>>9)%uintptr(len(turnLocks))]
	sh.mu.Lock()
	if e, ok := sh.m[c.addr]; ok && e.st == c.st {
		delete(sh.m, c.addr)
	}
	sh.mu.Unlock()
}

// addLockCleanup: a lock in a package variable has no cleanup (the
// runtime may refuse one): its entry stays, as the variable does.
func addLockCleanup(p unsafe.Pointer, c lockCell) {
	defer func() { _ = recover() }()
	runtime.AddCleanup((*byte)(p), forgetLock, c)
}

// Lock acquires mu at a lock turn site (generated code, for mu.Lock()).
func Lock(site *Site, mu *sync.Mutex) {
	if !enabled.Load() {
		mu.Lock()
		return
	}
	s := current()
	if !s.inside || noLockTurns {
		mu.Lock()
		return
	}
	if replaying {
		if w := playerLockTurn(s, site, unsafe.Pointer(mu), false); w != nil {
			if w.acquired {
				mu.Lock()
			}
			w.done()
			return
		}
		mu.Lock()
		return
	}
	mu.Lock()
	s.lockTurn(site, lockTurnsOf(unsafe.Pointer(mu)), false, true)
}

// TryLock tries mu at a lock turn site (mu.TryLock()); replay gives the
// recorded result.
func TryLock(site *Site, mu *sync.Mutex) bool {
	if !enabled.Load() {
		return mu.TryLock()
	}
	s := current()
	if !s.inside || noLockTurns {
		return mu.TryLock()
	}
	if replaying {
		if w := playerLockTurn(s, site, unsafe.Pointer(mu), false); w != nil {
			if w.acquired {
				mu.Lock() // the capture's holder let it go before
			}
			w.done()
			return w.acquired
		}
		return mu.TryLock()
	}
	ok := mu.TryLock()
	s.lockTurn(site, lockTurnsOf(unsafe.Pointer(mu)), false, ok)
	return ok
}

// RWLock acquires rw for writing at a lock turn site (rw.Lock()).
func RWLock(site *Site, rw *sync.RWMutex) {
	if !enabled.Load() {
		rw.Lock()
		return
	}
	s := current()
	if !s.inside || noLockTurns {
		rw.Lock()
		return
	}
	if replaying {
		if w := playerLockTurn(s, site, unsafe.Pointer(rw), false); w != nil {
			if w.acquired {
				rw.Lock()
			}
			w.done()
			return
		}
		rw.Lock()
		return
	}
	rw.Lock()
	s.lockTurn(site, lockTurnsOf(unsafe.Pointer(rw)), false, true)
}

// RWTryLock tries rw for writing at a lock turn site (rw.TryLock()).
func RWTryLock(site *Site, rw *sync.RWMutex) bool {
	if !enabled.Load() {
		return rw.TryLock()
	}
	s := current()
	if !s.inside || noLockTurns {
		return rw.TryLock()
	}
	if replaying {
		if w := playerLockTurn(s, site, unsafe.Pointer(rw), false); w != nil {
			if w.acquired {
				rw.Lock()
			}
			w.done()
			return w.acquired
		}
		return rw.TryLock()
	}
	ok := rw.TryLock()
	s.lockTurn(site, lockTurnsOf(unsafe.Pointer(rw)), false, ok)
	return ok
}

// RLock acquires rw for reading at a lock turn site (rw.RLock()).
func RLock(site *Site, rw *sync.RWMutex) {
	if !enabled.Load() {
		rw.RLock()
		return
	}
	s := current()
	if !s.inside || noLockTurns {
		rw.RLock()
		return
	}
	if replaying {
		if w := playerLockTurn(s, site, unsafe.Pointer(rw), true); w != nil {
			if w.acquired {
				rw.RLock()
			}
			w.done()
			return
		}
		rw.RLock()
		return
	}
	rw.RLock()
	s.lockTurn(site, lockTurnsOf(unsafe.Pointer(rw)), true, true)
}

// TryRLock tries rw for reading at a lock turn site (rw.TryRLock()).
func TryRLock(site *Site, rw *sync.RWMutex) bool {
	if !enabled.Load() {
		return rw.TryRLock()
	}
	s := current()
	if !s.inside || noLockTurns {
		return rw.TryRLock()
	}
	if replaying {
		if w := playerLockTurn(s, site, unsafe.Pointer(rw), true); w != nil {
			if w.acquired {
				rw.RLock()
			}
			w.done()
			return w.acquired
		}
		return rw.TryRLock()
	}
	ok := rw.TryRLock()
	s.lockTurn(site, lockTurnsOf(unsafe.Pointer(rw)), true, ok)
	return ok
}

// lockTurn records the LOCK_TURN of an acquisition (capture), made with
// the lock held if acquired.
func (s *Stream) lockTurn(site *Site, st *lockTurns, read, acquired bool) {
	var writes, reads uint64
	switch {
	case !acquired:
		writes, reads = st.writes.Load(), st.reads.Load()
	case read:
		writes, reads = st.writes.Load(), st.reads.Add(1)
	default:
		// Held for writing: no reader holds the lock, so the reads of the
		// previous write's epoch are all counted.
		writes, reads = st.writes.Add(1), st.reads.Swap(0)
	}
	s.begin(site, eventlog.KindLockTurn)
	s.enc.Buf = value.AppendUint(s.enc.Buf, st.id)
	s.enc.Buf = value.AppendUint(s.enc.Buf, writes)
	s.enc.Buf = value.AppendUint(s.enc.Buf, reads)
	s.enc.Buf = value.AppendBool(s.enc.Buf, acquired)
	s.emit(eventlog.KindLockTurn, s.parent())
	s.enc.Buf = s.enc.Buf[:0]
}

// replayLock is replay's state of one lock, by its number in the log
// (under player.mu).
type replayLock struct {
	writes, reads uint64
	addr          weak.Pointer[byte] // the lock the replayed code took at its first turn
}

// lockWait is an acquisition at a lock turn site in replay, from its turn
// on the lock's counts to its event's release.
type lockWait struct {
	s              *Stream
	i              int // the LOCK_TURN's index in the log
	num            uint64
	read, acquired bool
	writes, reads  uint64
}

// lockTurnReached: the lock's replayed counts have reached the
// acquisition's recorded ones (extra: they went past them, the code took
// the lock more often than the capture did).
func (w *lockWait) reached(l *replayLock) (ok, extra bool) {
	switch {
	case !w.acquired:
		return l.writes > w.writes || l.writes == w.writes && l.reads >= w.reads, false
	case w.read:
		return l.writes == w.writes, l.writes > w.writes
	default:
		return l.writes == w.writes-1 && l.reads == w.reads,
			l.writes > w.writes-1 || l.reads > w.reads
	}
}

// playerLockTurn waits, in replay, until the acquisition of the lock at p
// whose LOCK_TURN is the stream's next event may be made: nil, and the
// acquisition is native, if the goroutine was not started by replay or
// the log has no lock turns (written before them).
func playerLockTurn(s *Stream, site *Site, lk unsafe.Pointer, read bool) *lockWait {
	p := play
	sr := s.replay
	if sr == nil || !p.hasLockTurns {
		return nil
	}
	i, e, d, actual := p.turnEvent(s, site, eventlog.KindLockTurn)
	w := &lockWait{s: s, i: i, read: read}
	w.num, w.writes, w.reads, w.acquired = d.Uint(), d.Uint(), d.Uint(), d.Bool()
	if e.Kind != eventlog.KindLockTurn || e.Site != site.Name || d.Err != nil || w.num == 0 || w.acquired && !read && w.writes == 0 {
		p.turnMismatch(s, i, site, actual, "the code acquired a lock that goroutines of the observed set share where the log holds another event")
	}
	p.mu.Lock()
	if p.locks == nil {
		p.locks = map[uint64]*replayLock{}
	}
	l := p.locks[w.num]
	if l == nil {
		l = &replayLock{addr: weak.Make((*byte)(lk))}
		p.locks[w.num] = l
	} else if l.addr == (weak.Pointer[byte]{}) {
		// Counted from a segment's checkpoint: taken for the first time.
		l.addr = weak.Make((*byte)(lk))
	}
	if v := l.addr.Value(); v != nil && v != (*byte)(lk) {
		p.mu.Unlock()
		p.waitTurn(i)
		p.diverge(&Divergence{Seq: e.Seq, Stream: s.id, Reason: "the code acquired another lock than the capture did at this turn (the log's lock was first taken elsewhere)",
			Expected: p.describe(e), Actual: actual(), Pos: site.Pos})
		panic(abortReplay{})
	}
	if p.lockWaits == nil {
		p.lockWaits = map[*lockWait]bool{}
	}
	p.lockWaits[w] = true
	ok, extra := w.reached(l)
	for !ok && !extra && !p.done {
		p.cond.Wait()
		ok, extra = w.reached(l)
	}
	delete(p.lockWaits, w)
	done := p.done
	p.mu.Unlock()
	p.turnReached(s, i, site, actual, done, extra, "the code acquired a lock that goroutines of the observed set share more often than in the capture")
	return w
}

// done counts the acquisition on its lock (made, if acquired), then
// releases its LOCK_TURN event at its turn.
func (w *lockWait) done() {
	p := play
	if w.acquired {
		p.mu.Lock()
		l := p.locks[w.num]
		if w.read {
			l.reads++
		} else {
			l.writes, l.reads = w.writes, 0
		}
		p.mu.Unlock()
		p.cond.Broadcast()
	}
	p.waitTurn(w.i)
	p.consume(w.s)
}

// describeLockWaitsLocked lists the acquisitions waiting for their turn on
// a lock, for a deadlock's report (called with p.mu held).
func (p *player) describeLockWaitsLocked() string {
	var b []byte
	n := 0
	for w := range p.lockWaits {
		if n == 4 {
			b = fmt.Appendf(b, "; %d more wait for a lock", len(p.lockWaits)-n)
			break
		}
		n++
		e := p.ev(w.i)
		what := fmt.Sprintf("write %d", w.writes)
		switch {
		case !w.acquired:
			what = fmt.Sprintf("a failed try after write %d and %d reads", w.writes, w.reads)
		case w.read:
			what = fmt.Sprintf("a read after write %d", w.writes)
		}
		l := p.locks[w.num]
		b = fmt.Appendf(b, "; stream %d waits for its turn on lock %d at seq %d (%s %s: %s; replayed so far: %d writes, %d reads since)",
			e.Stream, w.num, e.Seq, e.Site, e.Pos, what, l.writes, l.reads)
	}
	return string(b)
}
