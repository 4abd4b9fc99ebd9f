package probe

import (
	"sync"
	"sync/atomic"
)

// Each goroutine that crosses the boundary has a *Stream, found by its g
// address in a lock-free open-addressing table (entries are never removed:
// the runtime reuses g structures, so the table is bounded by the peak number
// of goroutines; a reused g inherits a stream whose previous goroutine has
// finished, which keeps that stream's events in order).
const tableBits = 14

type slot struct {
	g uintptr // 0: empty; written once under tableMu, then read atomically
	s atomic.Pointer[Stream]
}

var (
	table    [1 << tableBits]slot
	tableMu  sync.Mutex
	overflow map[uintptr]*Stream // when the table is full (guarded by tableMu)

	nextStream atomic.Uint32 // stream IDs; 0 is package initialisation
)

func hashG(g uintptr) uintptr {
	g ^= g >> 17
	g *= 0x9E3779B97F4A7C15 & (^uintptr(0))
	return g >> 7
}

// current returns the calling goroutine's stream, creating it on first use.
func current() *Stream {
	g := getg()
	// Most goroutines sit in their home slot: one probe, no loop.
	sl := &table[hashG(g)&uintptr(len(table)-1)]
	if atomic.LoadUintptr(&sl.g) == g {
		if s := sl.s.Load(); s != nil {
			if raceEnabled {
				s.handoff.Load()
			}
			return s
		}
	}
	s := currentSlow(g)
	if raceEnabled {
		s.handoff.Load()
	}
	return s
}

// currentSlow is current past the home slot: linear probing, or a new
// stream.
func currentSlow(g uintptr) *Stream {
	mask := uintptr(len(table) - 1)
	for i, n := hashG(g)&mask, 0; n < 8; i, n = (i+1)&mask, n+1 {
		sl := &table[i]
		switch atomic.LoadUintptr(&sl.g) {
		case g:
			if s := sl.s.Load(); s != nil {
				return s
			}
		case 0:
			return newStream(g)
		}
	}
	return newStream(g)
}

// bind makes s the stream of goroutine g (replay's drivers, stream 0).
func bind(g uintptr, s *Stream) {
	tableMu.Lock()
	defer tableMu.Unlock()
	mask := uintptr(len(table) - 1)
	for i, n := hashG(g)&mask, 0; n < 8; i, n = (i+1)&mask, n+1 {
		sl := &table[i]
		switch atomic.LoadUintptr(&sl.g) {
		case g:
			sl.s.Store(s)
			return
		case 0:
			sl.s.Store(s)
			atomic.StoreUintptr(&sl.g, g)
			return
		}
	}
	if overflow == nil {
		overflow = map[uintptr]*Stream{}
	}
	overflow[g] = s
}

// initG is the goroutine bound to stream 0 by the capture that is running
// (guarded by tableMu). Stopping that capture unbinds it: the goroutine may
// end (a test that called CaptureTo), and a later goroutine reusing its g
// must start a stream of its own, not continue package initialisation.
var initG uintptr

// bindInit makes the calling goroutine the one of stream 0 (package
// initialisation) for a capture starting now.
func bindInit() {
	g := getg()
	bind(g, &Stream{id: 0})
	tableMu.Lock()
	initG = g
	tableMu.Unlock()
}

// unbindInit ends the binding of bindInit.
func unbindInit() {
	tableMu.Lock()
	g := initG
	initG = 0
	tableMu.Unlock()
	if g != 0 {
		bind(g, nil)
	}
}

func newStream(g uintptr) *Stream {
	tableMu.Lock()
	if s, ok := overflow[g]; ok && s != nil {
		tableMu.Unlock()
		return s
	}
	tableMu.Unlock()
	// A goroutine seen first inside observed code (an outcall from a
	// goroutine replay does not know) or at an incall: a new stream.
	s := &Stream{id: nextStream.Add(1)}
	bind(g, s)
	return s
}
