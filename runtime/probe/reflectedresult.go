package probe

import (
	"reflect"

	"github.com/rules-capture/rules_capture/runtime/value"
)

// Results of outcalls that observed code may reflect over, in a package
// that reflects over values from outside (docs/design/reflection.md): an
// `any` result of the caller's function (mapstructure's decode hooks
// return the decoded value, which the decoder sets into its target by
// reflection). Recorded as a reflected argument is, deeply, and rebuilt as
// its own type where the build links it; unlike a reflected argument, a
// result whose type replay cannot make gets a stand-in as before and
// does not end the replay: the code may never reflect over it.

// EncodeResultReflected appends v, an outcall's result, deeply: objects of
// other packages with their contents on first sight (value.Encoder's
// Deep). Not Refresh, which marks the objects it writes as brought into
// the set (markRebuilt): replay decodes an outcall's results without
// encoding them, so it could not mark the same memory.
func EncodeResultReflected[T any](s *Stream, v T) {
	s.enc.Objects = s.objectTable()
	s.enc.Deep = true
	value.Encode(&s.enc, v)
	s.enc.Deep = false
}

// DecodeLinked reads the next replayed value of an outcall's result
// recorded with EncodeResultReflected: an interface value of a dynamic type
// the build links but does not register (a type of a linked test file) is
// rebuilt as itself, as for a reflected argument.
func DecodeLinked[T any](s *Stream) T {
	s.dec.Linked = true
	v := Decode[T](s)
	s.dec.Linked = false
	return v
}

// Objects of other packages that a reflected value brings into the set
// inside it (mapstructure's DecoderConfig, an observed struct whose Result
// field holds the caller's target) are read and written natively as the
// argument itself is, so their memory counts as brought in too
// (markRebuilt): an outcall writing into it records what it wrote, and a
// checkpoint refuses a state that holds one (ckptObjects.ID). The
// encoders mark them in capture and, re-encoding the incall's arguments,
// in replay alike.
func init() {
	value.DeepPointee = func(v reflect.Value) { markRebuilt(v) }
	// Pointers to types of no package (a test's marshaler counting its
	// calls through a *int) count from LastUnmadeOutFormat on: replay of
	// an earlier log, whose capture did not count them, does not.
	value.DeepEveryTimePointee = func(v reflect.Value) {
		if writesBackMade() {
			markRebuilt(v)
		}
	}
}
