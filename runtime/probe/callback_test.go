package probe

import (
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

// Callback must hand back values that are not function values of the
// observed set unchanged, without allocating (it runs for every function or
// interface argument of every outcall).
func TestCallbackLeavesOtherValuesAlone(t *testing.T) {
	var events int
	CaptureTo(func(*eventlog.Event) uint64 { events++; return uint64(events) })
	defer CaptureTo(nil)

	var r io.Reader = strings.NewReader("x")
	if allocs := testing.AllocsPerRun(100, func() { r = Callback(r) }); allocs != 0 {
		t.Errorf("Callback of an io.Reader: %v allocations, want 0", allocs)
	}
	if _, ok := r.(*strings.Reader); !ok {
		t.Errorf("Callback changed an io.Reader to %T", r)
	}
	upper := strings.ToUpper // a function of an unobserved package
	if got := Callback(upper); reflect.ValueOf(got).Pointer() != reflect.ValueOf(upper).Pointer() {
		t.Error("Callback wrapped a function of an unobserved package")
	}
	var nilFunc func()
	if Callback(nilFunc) != nil {
		t.Error("Callback of a nil function is not nil")
	}
	if events != 0 {
		t.Errorf("Callback recorded %d events", events)
	}
}
