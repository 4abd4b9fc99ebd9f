package probe

import (
	"encoding/binary"
	"runtime"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// Observed code may name a function from outside by its code address
// (go-cmp's function.NameOf: runtime.FuncForPC(v.Pointer()).Name(), v a
// function the test passes in). The outcall's argument is an address in
// the capture's binary. In replay the function is a stand-in, whose
// FuncPointer is its closure's address, or the function itself at its
// address in replay's binary: another number for the same function. The
// name the code gets comes from the log (the Name outcall), so what replay
// can check is that the code names the same functions in the same pattern:
// the first time it passes an address where the log holds another, replay
// matches the two, one to one, and passes the capture's address from then
// on. Naming another function than the capture did at a later sight of
// either shows as different arguments. An address of the observed set's own
// code does not get here: FuncForPC runs natively on it (ObservedPC).

type pendingPC struct {
	pc  uintptr
	off int // where its value starts in the stream's encoded values
}

// CodePC appends pc, the argument of an outcall that names the function at
// that address (runtime.FuncForPC).
func CodePC(s *Stream, pc uintptr) {
	if !replaying || play == nil {
		s.Uint(uint64(pc))
		return
	}
	if _, ok := codeFromLog.Load(pc); ok {
		// The capture's own address, which PointerOf answered from
		// the log (address.go).
		s.Uint(uint64(pc))
		return
	}
	p := play
	p.objMu.Lock()
	logged, matched := p.pcToLog[pc]
	standIn := false
	if !matched {
		for c := range p.funcStandIns { // FuncPointer's address of a stand-in
			if uintptr(c) == pc {
				standIn = true
				break
			}
		}
	}
	p.objMu.Unlock()
	if matched {
		s.Uint(logged)
		return
	}
	if !standIn {
		// A function of replay's binary (a stand-in bound to the
		// recorded function, or one external code took itself) is at
		// its entry; anything else is compared as the number it is.
		f := runtime.FuncForPC(pc)
		standIn = f != nil && f.Entry() == pc
	}
	if standIn {
		s.codePCs = append(s.codePCs, pendingPC{pc: pc, off: len(s.enc.Buf)})
	}
	s.Uint(uint64(pc))
}

// bindCodePCs matches the addresses the call being built passes and replay
// has not matched yet to the log's at the same place of e's values, when
// that makes the values the log's and neither address is matched to
// another already.
func (p *player) bindCodePCs(s *Stream, e *eventlog.Event) {
	pending := s.codePCs
	s.codePCs = s.codePCs[:0]
	got := append([]byte(nil), s.enc.Buf...)
	want := e.Values
	type match struct {
		pc     uintptr
		logged uint64
	}
	var matches []match
	shift := 0
	for _, pp := range pending {
		off := pp.off + shift
		if off >= len(got) || off >= len(want) || want[off] != value.TagUint || got[off] != value.TagUint || string(got[:off]) != string(want[:off]) {
			return
		}
		logged, n := binary.Uvarint(want[off+1:])
		_, m := binary.Uvarint(got[off+1:])
		if n <= 0 || m <= 0 {
			return
		}
		matches = append(matches, match{pp.pc, logged})
		enc := value.AppendUint(nil, logged)
		got = append(got[:off], append(enc, got[off+1+m:]...)...)
		shift += len(enc) - (1 + m)
	}
	p.objMu.Lock()
	defer p.objMu.Unlock()
	// One to one among the call's own addresses too.
	fromLog, toLog := map[uint64]uintptr{}, map[uintptr]uint64{}
	for _, m := range matches {
		if pc, ok := p.pcFromLog[m.logged]; ok && pc != m.pc {
			return // the log's function is another one's in replay
		}
		if pc, ok := fromLog[m.logged]; ok && pc != m.pc {
			return
		}
		if l, ok := toLog[m.pc]; ok && l != m.logged {
			return
		}
		fromLog[m.logged], toLog[m.pc] = m.pc, m.logged
	}
	if !p.sameLocatedLocked(want, got) {
		return
	}
	if p.pcToLog == nil {
		p.pcToLog, p.pcFromLog = map[uintptr]uint64{}, map[uint64]uintptr{}
	}
	for _, m := range matches {
		p.pcToLog[m.pc] = m.logged
		p.pcFromLog[m.logged] = m.pc
	}
	s.enc.Buf = append(s.enc.Buf[:0], got...)
}
