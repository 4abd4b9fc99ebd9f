package probe

import (
	"reflect"

	"github.com/rules-capture/rules_capture/runtime/eventlog"

	"github.com/rules-capture/rules_capture/runtime/value"
)

// Errors of a registered type that points to another package's type cross
// the boundary by their pointee (value.TagTypedError), and replay makes a
// copy of each. Observed code may complete such an error with a method of
// its type that writes the receiver (expr's `fileError.Bind(tree.Source)`
// filling in the line, the column and the snippet of an optimizer's
// *file.Error) and return it: the method is an outcall, answered from the
// log in replay, so unless the log holds what it wrote, replay's copy keeps
// the fields it had when it crossed and the RETURN_IN differs on unchanged
// code. So the error's memory counts as the code's own (markRebuilt), as
// memory a reflected argument brought in: an outcall getting it as its
// receiver or as an argument records its pointee after the call
// (OutPointeeIfOwned), and replay writes it back. The encoder marks the
// error in the capture at every event that writes it, and replay marks its
// copy where it decodes the event (or encodes it, for an event of the
// observed code), so both sides agree on which outcalls the log holds a
// pointee for.

// LastUnwrittenTypedErrorFormat is the last log format version that does
// not count an error crossed by its pointee as the code's own: replay of
// such a log does not mark its copies, as the capture did not.
const LastUnwrittenTypedErrorFormat = 10

func init() {
	value.TypedErrorPointee = func(v reflect.Value) {
		if writesBackTypedErrors() {
			markRebuilt(v)
		}
	}
}

// writesBackTypedErrors reports whether the log written or replayed counts
// the errors LastUnwrittenTypedErrorFormat names as the code's own.
func writesBackTypedErrors() bool {
	if play == nil {
		return eventlog.FormatVersion > LastUnwrittenTypedErrorFormat
	}
	return play.format > LastUnwrittenTypedErrorFormat
}
