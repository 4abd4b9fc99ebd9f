package calcbench

import (
	"fmt"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/probe"
)

// tooDeep is the panic value raised at the bottom of descend's recursion.
const tooDeep = "recursion too deep"

// descend recurses through the boundary to depth levels (an incall of
// Descend and an outcall of the callback per level) and panics there, as
// go-cmp's recursion check does. It returns what its caller recovered.
func descend(levels int) (r any) {
	defer func() { r = recover() }()
	var step func(depth int)
	step = func(depth int) {
		if depth == levels {
			panic(tooDeep)
		}
		Descend(depth+1, step)
	}
	Descend(0, step)
	return nil
}

// BenchmarkDeepPanic measures a panic unwinding through n boundary levels
// (2n boundary frames: Descend and its callback), with capture off and with
// the probes on (events handed to a counting function). Study fault F60:
// when every level re-panicked inside its deferred call, the Go runtime
// nested n panics at a cost growing faster than n².
func BenchmarkDeepPanic(b *testing.B) {
	for _, levels := range []int{100, 1000, 3000} {
		b.Run(fmt.Sprintf("off/levels=%d", levels), func(b *testing.B) {
			probe.SetCapture(false)
			defer probe.SetCapture(true)
			defer reportCPU(b)()
			for i := 0; i < b.N; i++ {
				if r := descend(levels); r != tooDeep {
					b.Fatalf("recovered %v", r)
				}
			}
		})
		b.Run(fmt.Sprintf("probes/levels=%d", levels), func(b *testing.B) {
			var seq uint64
			probe.CaptureTo(func(*eventlog.Event) uint64 { seq++; return seq })
			defer probe.CaptureTo(nil)
			defer reportCPU(b)()
			for i := 0; i < b.N; i++ {
				if r := descend(levels); r != tooDeep {
					b.Fatalf("recovered %v", r)
				}
			}
		})
	}
}
