package codec_test

import (
	"testing"

	"example.com/reflectlocal/codec"
)

// external is declared in the external test package, which the replay
// harness links as a module of its own at codec_test's import path.
type external struct{ H int }

func TestExternal(t *testing.T) {
	if got := codec.Fields(external{H: 8}); got != "H=8" {
		t.Fatal(got)
	}
}
