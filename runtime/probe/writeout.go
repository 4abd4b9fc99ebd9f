package probe

import (
	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

// Write emits the WRITE_OUT event of a write of an external field or another
// package's variable with the value appended since Out (capture), or checks
// it against the log (replay): a different value is a divergence at that
// event under check strict, a note otherwise. The write itself happens in
// both: in replay the location is a placeholder or a variable no external
// code reads, and observed code's later reads of it are READ_OUTs.
func (s *Stream) Write() {
	if replaying {
		playerWrite(s)
	} else {
		s.emit(eventlog.KindWriteOut, s.parent())
	}
	s.enc.Buf = s.enc.Buf[:0]
}

func playerWrite(s *Stream) {
	p := play
	actual := func() string { return describeActual(eventlog.KindWriteOut, s.site, s.enc.Buf) }
	_, e := p.peek(s, actual)
	if e.Kind != eventlog.KindWriteOut || e.Site != s.site.Name {
		p.diverge(&Divergence{Seq: e.Seq, Stream: s.id, Reason: "the code wrote a different location than the log holds",
			Expected: p.describe(e), Actual: actual(), Pos: s.site.Pos, Candidate: p.candidate(s, s.replay)})
		panic(abortReplay{})
	}
	if !p.sameValues(s, e.Values) {
		d := &Divergence{Seq: e.Seq, Stream: s.id, Reason: "different value written", Expected: p.describe(e), Actual: actual(), Pos: s.site.Pos}
		if p.level != CheckStrict {
			p.note(d)
		} else {
			p.diverge(d)
			panic(abortReplay{})
		}
	}
	p.consume(s)
}
