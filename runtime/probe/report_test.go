package probe

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestConcurrentReportsStayWhole: two goroutines that end a replay at once
// both write the report (a diverging goroutine exits while the main goroutine
// reports the end of the log). Whenever the report file exists it must hold a
// whole report; with one shared temporary file a writer could rename another
// writer's truncated file into place, which os.Exit then left empty
// (golang-lru's expirable.TestLRUWithPurge: "unreadable report").
func TestConcurrentReportsStayWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run0.arrow.json")
	t.Setenv(EnvReplayReport, path)
	const writers, rounds = 4, 300
	stop := make(chan struct{})
	var bad []string
	var readerDone sync.WaitGroup
	readerDone.Add(1)
	go func() {
		defer readerDone.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			b, err := os.ReadFile(path)
			if err != nil {
				continue // not written yet
			}
			var r Report
			if err := json.Unmarshal(b, &r); err != nil && len(bad) < 3 {
				bad = append(bad, fmt.Sprintf("%d bytes: %v", len(b), err))
			}
		}
	}()
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds {
				writeReport(&Report{Log: "run0.arrow", Verdict: "diverged", Events: w*rounds + i,
					Divergence: &Divergence{Seq: uint64(i), Reason: "different results", Expected: "x", Actual: "y"}})
			}
		}()
	}
	wg.Wait()
	close(stop)
	readerDone.Wait()
	if len(bad) > 0 {
		t.Fatalf("the report file was read half written: %v", bad)
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*.tmp"))
	if len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}
