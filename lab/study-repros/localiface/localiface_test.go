package localiface_test

import (
	"errors"
	"testing"

	"example.com/repros/localiface"
)

// wrapped is an error of the test's own (a type replay cannot name) that
// has a cause.
type wrapped struct {
	msg   string
	cause error
}

func (w *wrapped) Error() string { return w.msg + ": " + w.cause.Error() }
func (w *wrapped) Cause() error  { return w.cause }

func TestCause(t *testing.T) {
	root := errors.New("root")
	err := &wrapped{"outer", &wrapped{"inner", root}}
	if got := localiface.Cause(err); got != root {
		t.Fatalf("Cause = %v, want %v", got, root)
	}
	if got := localiface.Depth(err); got != 2 {
		t.Fatalf("Depth = %d, want 2", got)
	}
	if got := localiface.Cause(root); got != root {
		t.Fatalf("Cause(root) = %v", got)
	}
}
