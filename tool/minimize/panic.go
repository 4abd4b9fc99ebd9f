package minimize

import (
	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// RecordedPanic is a panic the log recorded: the failure it makes, and
// the seq of its innermost PANIC_OUT.
type RecordedPanic struct {
	Failure Failure
	Seq     uint64
}

// RecordedPanics lists the panics a log recorded, in order: every
// top-level incall that panicked (external code may recover a panic and go
// on; in a crash log, the last is the panic that ended the process),
// followed back on its stream through the PANIC_IN and PANIC_OUT events of
// every boundary frame it left to where it began: the innermost PANIC_OUT,
// in the function that raised it (a callback, when the panic was raised in
// observed code that external code called back).
func (l *Log) RecordedPanics() []RecordedPanic {
	var out []RecordedPanic
	for i := range l.Events {
		top := &l.Events[i]
		u := l.Unit[i]
		if top.Kind != eventlog.KindPanicOut || u < 0 || top.Parent != l.Units[u].First {
			continue
		}
		first := i
		for j := i - 1; j >= 0; j-- {
			e := &l.Events[j]
			if e.Stream != top.Stream {
				continue
			}
			if e.Kind != eventlog.KindPanicOut && e.Kind != eventlog.KindPanicIn {
				break
			}
			first = j
		}
		e := &l.Events[first]
		value, pos := panicValue(e.Values)
		if pos == "" {
			pos = e.Pos
		}
		out = append(out, RecordedPanic{Failure{
			Reason: "the code panics as recorded", Kind: e.Kind.String(), Site: e.Site, Pos: pos, Actual: value,
			Panic: true, PanicCall: l.Units[u].First, PanicEnd: top.Seq,
		}, e.Seq})
	}
	return out
}

// RecordedPanic returns the first panic the log recorded (RecordedPanics):
// the failure minimize takes by default, as the first divergence is for a
// log that diverges; what follows a failure may be its consequence.
func (l *Log) RecordedPanic() (Failure, uint64, bool) {
	ps := l.RecordedPanics()
	if len(ps) == 0 {
		return Failure{}, 0, false
	}
	return ps[0].Failure, ps[0].Seq, true
}

// panicValue splits a PANIC_OUT's values into the rendered panic value and
// the position the capture recorded for it (its second value, a string).
func panicValue(b []byte) (val, pos string) {
	parts, err := value.Split(b)
	if err != nil || len(parts) == 0 {
		return results(b), ""
	}
	val = results(parts[0])
	if len(parts) > 1 {
		d := value.Decoder{Buf: parts[1]}
		if s := d.String(); d.Err == nil {
			pos = s
		}
	}
	return val, pos
}

// InPanicCall says whether the event seq of the original log lies in the
// incall that panicked, up to the panic's way out of it.
func (l *Log) InPanicCall(seq uint64, f Failure) bool {
	return f.Panic && seq >= f.PanicCall && seq <= f.PanicEnd && l.UnitOf(seq) == l.UnitOf(f.PanicCall)
}
