package study

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Per-test limits. `capture test` runs each test of a package in its own
// process, one after the other, with no limit of its own; a test that is
// quick without capture can run for many minutes under it (an event-dense
// loop), and the command's -timeout then loses every later test of the
// module. So while capture test runs, the study watches its children: a
// test process that runs past its test's limit is killed, capture test
// reports it as failed and goes on with the next test, and the study
// records it as timed out (its own outcome, not replayed).
//
// The children are found through /proc (their parent and command line);
// where there is none, only the command's -timeout bounds the tests.

// DefaultTestLimit and DefaultTestLimitFactor give each test under capture
// max(DefaultTestLimit, DefaultTestLimitFactor × its time without capture).
const (
	DefaultTestLimit       = time.Minute
	DefaultTestLimitFactor = 20
)

// testLimit is how long test may run under capture, given its time
// without capture.
func (cfg Config) testLimit(plain time.Duration) time.Duration {
	limit := cfg.TestLimit
	if limit <= 0 {
		limit = DefaultTestLimit
	}
	factor := cfg.TestLimitFactor
	if factor <= 0 {
		factor = DefaultTestLimitFactor
	}
	if f := time.Duration(factor * float64(plain)); f > limit {
		limit = f.Round(time.Second)
	}
	return limit
}

// timedOut is a test process the watch killed.
type timedOut struct {
	bin, test string
	limit     time.Duration
}

// testWatch kills the test processes of one capture test run that outlive
// their limits.
type testWatch struct {
	binDir string                               // capture test's -keep-binaries: its test processes run binaries from here
	limit  func(bin, test string) time.Duration // 0: no limit
	poll   time.Duration

	mu     sync.Mutex
	killed []timedOut
	seen   map[string]time.Time // "pid cmdline" -> first seen
	gone   map[string]bool      // killed
	stop   chan struct{}
	done   chan struct{}
}

func newTestWatch(binDir string, limit func(bin, test string) time.Duration) *testWatch {
	return &testWatch{binDir: binDir, limit: limit, poll: 200 * time.Millisecond, seen: map[string]time.Time{}, gone: map[string]bool{}}
}

// start watches the children of process parent until the returned
// function is called.
func (w *testWatch) start(parent int) func() {
	w.stop, w.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(w.done)
		t := time.NewTicker(w.poll)
		defer t.Stop()
		for {
			w.check(parent)
			select {
			case <-w.stop:
				return
			case <-t.C:
			}
		}
	}()
	return func() {
		close(w.stop)
		<-w.done
	}
}

// check kills every test process of parent past its limit.
func (w *testWatch) check(parent int) {
	now := time.Now()
	for _, c := range children(parent) {
		bin, test, ok := w.testOf(c.argv)
		if !ok {
			continue
		}
		key := strconv.Itoa(c.pid) + " " + strings.Join(c.argv, " ")
		w.mu.Lock()
		first, ok := w.seen[key]
		if !ok {
			first = now
			w.seen[key] = now
		}
		gone := w.gone[key]
		w.mu.Unlock()
		limit := w.limit(bin, test)
		if gone || limit <= 0 || now.Sub(first) < limit {
			continue
		}
		if p, err := os.FindProcess(c.pid); err == nil && p.Kill() == nil {
			w.mu.Lock()
			w.killed = append(w.killed, timedOut{bin: bin, test: test, limit: limit})
			w.gone[key] = true
			w.mu.Unlock()
		}
	}
}

// testOf reads a test process's command line as capture test starts it
// (BIN -test.run ^Name$ -test.count=1): the binary's base name and the
// test.
func (w *testWatch) testOf(argv []string) (bin, test string, ok bool) {
	if len(argv) < 3 || filepath.Dir(argv[0]) != w.binDir {
		return "", "", false
	}
	for i, a := range argv[:len(argv)-1] {
		if a == "-test.run" {
			test = unquoteRun(argv[i+1])
		}
	}
	if test == "" {
		return "", "", false
	}
	return filepath.Base(argv[0]), test, true
}

// unquoteRun turns capture test's "^" + regexp.QuoteMeta(name) + "$" back
// into name ("" if it is not of that form).
func unquoteRun(re string) string {
	if !strings.HasPrefix(re, "^") || !strings.HasSuffix(re, "$") || len(re) < 2 {
		return ""
	}
	name := re[1 : len(re)-1]
	unq := quoted.ReplaceAllString(name, "$1")
	if "^"+regexp.QuoteMeta(unq)+"$" != re {
		return ""
	}
	return unq
}

var quoted = regexp.MustCompile(`\\(.)`)

// killedTests returns the tests killed so far.
func (w *testWatch) killedTests() []timedOut {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]timedOut(nil), w.killed...)
}

type proc struct {
	pid  int
	argv []string
}

// children lists the processes whose parent is pid, with their command
// lines, from /proc (none where there is no /proc).
func children(pid int) []proc {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []proc
	for _, e := range ents {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil || parentOf(stat) != pid {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		argv := strings.Split(string(bytes.TrimRight(cmdline, "\x00")), "\x00")
		out = append(out, proc{pid: n, argv: argv})
	}
	return out
}

// parentOf reads the parent's pid from a /proc/PID/stat line: "pid (comm)
// state ppid ...", where comm may hold spaces and parentheses.
func parentOf(stat []byte) int {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return -1
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 2 {
		return -1
	}
	n, err := strconv.Atoi(f[1])
	if err != nil {
		return -1
	}
	return n
}
