package probe

import (
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

// BenchmarkWorkerPoolTurns: the cost of channel turns (chanturn.go) on
// channel-heavy observed code: a pool of 4 workers ranging over an
// unbuffered channel that one producer feeds, per job. "native" is the
// loop without probes; "off" the turn site's code with capture off;
// "capture" records every receive's CHAN_TURN to a log.
func BenchmarkWorkerPoolTurns(b *testing.B) {
	for _, mode := range []string{"native", "off", "capture"} {
		b.Run(mode, func(b *testing.B) {
			if mode == "capture" {
				if _, err := CaptureWith(filepath.Join(b.TempDir(), "turns.arrow"), eventlog.Options{}); err != nil {
					b.Fatal(err)
				}
				defer Close()
			}
			site := &Site{Name: "range over jobs", Pos: "bench.go:1"}
			goSite := &Site{Name: "go worker", Pos: "bench.go:2"}
			jobs := make(chan int)
			var sum atomic.Int64
			var wg sync.WaitGroup
			for range 4 {
				c := Go(goSite)
				wg.Go(func() {
					c.Start()
					defer c.End()
					local := 0
					for {
						var v int
						var ok bool
						if mode == "native" {
							v, ok = <-jobs
						} else {
							turn := Turn(site, jobs)
							v, ok = <-jobs
							turn.Received()
						}
						if !ok {
							break
						}
						local += v
					}
					sum.Add(int64(local))
				})
			}
			n := 0
			for b.Loop() {
				jobs <- n
				n++
			}
			close(jobs)
			wg.Wait()
			if got, want := sum.Load(), int64(n)*int64(n-1)/2; got != want {
				b.Fatalf("sum %d, want %d (%s jobs)", got, want, strconv.Itoa(n))
			}
		})
	}
}
