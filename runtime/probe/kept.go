package probe

import (
	"bytes"
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"
	"weak"
)

// Owned memory that an external object keeps (docs/design/boundary-model.md,
// "Out-parameters"). An outcall that gets an owned address records its
// pointee after the call (OutPointee, OutPointeeIfOwned); but the callee may
// keep the address in an object it returns and write through it in a later
// call on that object: toml's Marshal gives `new(bytes.Buffer)` to its
// NewEncoder, whose `bufio.NewWriter(w)` keeps the buffer and fills it at
// `Flush`, so replay, where bufio does not run, returned an empty buffer.
//
// So an outcall that got owned addresses (or objects that keep some) and
// returns a pointer to an external object makes that object a keeper of
// them (KeptBy); every later outcall that gets a keeper as its receiver or
// an argument records, after the call, whether each address it keeps has
// changed since the pointee was last recorded and, if so, the pointee, which
// replay writes back. The keepers are made at the same events in capture
// and replay (from the same owned addresses and the outcalls' results,
// replay's placeholders), so both agree on which outcalls hold these values.
//
// Changed means that the pointee's own memory (a bytes.Buffer's slice
// header and offset, not the bytes its slice points to) differs from what
// it was when last recorded: comparing it costs its size, where comparing
// the contents would cost the buffer's length at every call on the keeper.
// A write that leaves the pointee's own memory as it was (the same number
// of bytes written again after a Reset) is not recorded.

// LastUnkeptOutFormat is the last log format version whose RETURN_OUT
// events do not hold the pointees of owned memory that an external object
// keeps (KeptBy). Replay of such a log leaves that memory as it was.
const LastUnkeptOutFormat = 11

// keepsBack reports whether the log replayed holds the values keptOut
// records: always in the capture.
func keepsBack() bool {
	return play == nil || play.format > LastUnkeptOutFormat
}

// keptAddr is an owned address a keeper keeps.
type keptAddr struct {
	p    any    // the owned pointer
	last []byte // capture: its pointee's own memory when last recorded
}

// keeper is an external object that keeps owned addresses.
type keeper struct {
	wp     weak.Pointer[byte] // zero for an object outside the heap
	static bool
	kept   []*keptAddr
}

func (k *keeper) alive() bool { return k.static || k.wp.Value() != nil }

// keepers is the table of keepers by address.
var keepers struct {
	mu    sync.Mutex
	m     map[uintptr]*keeper
	swept int          // len(m) after the last sweep of collected entries
	n     atomic.Int32 // 1 once a keeper was made: the common case asks nothing
}

// ownMemory returns a copy of the memory of the value p points to.
func ownMemory(p any) []byte {
	rv := reflect.ValueOf(p)
	n := rv.Type().Elem().Size()
	if n == 0 {
		return nil
	}
	return bytes.Clone(unsafe.Slice((*byte)(rv.UnsafePointer()), n))
}

// noteOwned adds p, an owned address the outcall being built got and whose
// pointee its RETURN_OUT records, to the addresses a pointer the outcall
// returns keeps (KeptBy).
func noteOwned(s *Stream, p any) {
	if !keepsBack() {
		return
	}
	rv := reflect.ValueOf(p)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return
	}
	ka := &keptAddr{p: p}
	if play == nil {
		ka.last = ownMemory(p)
	}
	s.keptSeen = append(s.keptSeen, ka)
}

// keeperOf returns the keeper x is, or nil.
func keeperOf(x any) *keeper {
	if keepers.n.Load() == 0 {
		return nil
	}
	rv := reflect.ValueOf(x)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return nil
	}
	a := uintptr(rv.UnsafePointer())
	keepers.mu.Lock()
	defer keepers.mu.Unlock()
	k := keepers.m[a]
	if k == nil {
		return nil
	}
	if !k.alive() {
		delete(keepers.m, a)
		return nil
	}
	return k
}

// keptOut records, after an outcall that got x as its receiver or an
// argument (capture), for each owned address x keeps, whether its pointee
// changed since it was last recorded and, if so, the pointee.
func keptOut(s *Stream, x any) {
	if !keepsBack() {
		return
	}
	k := keeperOf(x)
	if k == nil {
		return
	}
	for _, ka := range k.kept {
		now := ownMemory(ka.p)
		changed := !bytes.Equal(now, ka.last)
		s.Bool(changed)
		if changed {
			Pointee(s, ka.p)
			ka.last = now
		}
		s.keptSeen = append(s.keptSeen, ka)
	}
}

// setKeptOut writes back what keptOut recorded (replay).
func setKeptOut(s *Stream, x any) {
	if !keepsBack() {
		return
	}
	k := keeperOf(x)
	if k == nil {
		return
	}
	for _, ka := range k.kept {
		if s.DecodeBool() {
			SetPointee(s, ka.p)
		}
		s.keptSeen = append(s.keptSeen, ka)
	}
}

// KeptBy makes r, a result of an outcall, if it is a pointer to an
// external object, a keeper of the owned addresses the outcall got
// (directly, or kept by a keeper it got). The outcall's Return or Done
// forgets them.
func KeptBy(s *Stream, r any) {
	if len(s.keptSeen) == 0 || !keepsBack() {
		return
	}
	rv := reflect.ValueOf(r)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Type().Elem().Size() == 0 || Observed(r) {
		return
	}
	data := rv.UnsafePointer()
	a := uintptr(data)
	keepers.mu.Lock()
	defer keepers.mu.Unlock()
	if keepers.m == nil {
		keepers.m = map[uintptr]*keeper{}
	}
	k := keepers.m[a]
	if k != nil && !k.alive() {
		k = nil
	}
	if k == nil {
		k = &keeper{}
		if heapMemory(data) {
			k.wp = weak.Make((*byte)(data))
		} else {
			k.static = true
		}
		if len(keepers.m) >= 2*keepers.swept+64 {
			for key, o := range keepers.m {
				if !o.alive() {
					delete(keepers.m, key)
				}
			}
			keepers.swept = len(keepers.m)
		}
		keepers.m[a] = k
		keepers.n.Store(1)
	}
next:
	for _, ka := range s.keptSeen {
		for _, have := range k.kept {
			if have == ka || have.p == ka.p {
				continue next
			}
		}
		k.kept = append(k.kept, ka)
	}
}
