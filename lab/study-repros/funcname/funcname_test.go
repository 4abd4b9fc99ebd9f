package funcname

import "testing"

// TestStateString names a step the test takes from the package, as toml's
// TestStateFnString does (`var fn stateFn = lexString`).
func TestStateString(t *testing.T) {
	var st State = word
	if got := st.String(); got != "word()" {
		t.Errorf("got %q", got)
	}
	st = nil
	if got := st.String(); got != "<nil>" {
		t.Errorf("got %q", got)
	}
}
