package probe

import (
	"testing"

	"github.com/rules-capture/rules_capture/runtime/value"
)

// TestSameValuesApartFromImplements: values that differ only by a
// TagImplements prefix are the same to replay (a test double declared in an
// in-package test file, in an interface field: the capture did not register
// its type and wrote the interfaces it implements, the replay build links
// the test file and does not; chi's readerFromRecorder in a basicWriter's
// ResponseWriter, "different arguments" at wrap_writer.go:146). A different
// reference still differs.
func TestSameValuesApartFromImplements(t *testing.T) {
	p := newPlayer()
	ref := value.AppendRef(nil, "*p.recorder", 7)
	prefixed := append([]byte{value.TagImplements, 1, byte(len("io.ReaderFrom"))}, "io.ReaderFrom"...)
	prefixed = append(prefixed, ref...)
	if !p.sameLocated(prefixed, ref) || !p.sameLocated(ref, prefixed) {
		t.Error("a value and the same value with an implements prefix differ")
	}
	if other := value.AppendRef(nil, "*p.recorder", 8); p.sameLocated(prefixed, other) {
		t.Error("references to two objects are the same apart from the prefix")
	}
}
