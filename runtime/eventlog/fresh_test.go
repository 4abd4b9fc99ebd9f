package eventlog

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"
)

const freshChildEnv = "EVENTLOG_FRESH_CHILD"

// TestFreshProcessChild is the child of TestLogFileNotPolled and
// BenchmarkFreshProcessLog: in a fresh process, Create, N events, Close;
// then it prints the descriptors the process has open.
func TestFreshProcessChild(t *testing.T) {
	path := os.Getenv(freshChildEnv)
	if path == "" {
		t.Skip("child process of TestLogFileNotPolled and BenchmarkFreshProcessLog")
	}
	n := 0
	fmt.Sscan(os.Getenv("EVENTLOG_FRESH_EVENTS"), &n)
	printFDs("before")
	w, err := Create(path, Meta{ObservedPackages: []string{"example.com/fresh"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		e := sampleEvent(i)
		w.Append(&e)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	printFDs("fd")
}

// printFDs prints a line "<prefix> <target>" per open descriptor. Readlink,
// not ReadDir: opening the directory would start the poller.
func printFDs(prefix string) {
	for fd := 0; fd < 64; fd++ {
		if l, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd)); err == nil {
			fmt.Println(prefix, l)
		}
	}
}

// BenchmarkFreshProcessLog is the log's cost to a short process (one test
// under capture test): per op a fresh process (this test binary, child mode)
// creates a log, appends 0 or 100 events and closes it. It reports the
// child's CPU time (user+system, all its threads: goroutines started wake
// idle Ps and so start threads) as cpu-ns/op, and the same for a child that
// creates no log as base-cpu-ns/op, and the difference as log-cpu-ns/op.
func BenchmarkFreshProcessLog(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("child CPU time from wait4")
	}
	for _, events := range []int{0, 100} {
		b.Run(fmt.Sprintf("events=%d", events), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "log.arrows")
			run := func(log bool) time.Duration {
				cmd := exec.Command(os.Args[0], "-test.run", "^TestFreshProcessChild$", "-test.count=1")
				env := fmt.Sprintf("EVENTLOG_FRESH_EVENTS=%d", events)
				if log {
					cmd.Env = append(os.Environ(), freshChildEnv+"="+path, env)
				} else {
					cmd.Env = append(os.Environ(), freshChildEnv+"=", env)
				}
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("child: %v\n%s", err, out)
				}
				ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
				return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
			}
			var cpu, base time.Duration
			for b.Loop() {
				cpu += run(true)
				b.StopTimer()
				base += run(false)
				b.StartTimer()
			}
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(base)/float64(b.N), "base-cpu-ns/op")
			b.ReportMetric(float64(cpu-base)/float64(b.N), "log-cpu-ns/op")
		})
	}
}
