package eventlog

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestShortLogStartsNoGoroutine: a log whose batch is never handed over
// before Close (a short process: one test under capture test) starts no
// goroutine, neither the encoder nor a flush ticker; Close writes the batch
// and the end-of-stream marker itself, and the log reads back complete. A
// goroutine started in a fresh process wakes an idle P and so starts an OS
// thread, which a short capture process paid for nothing.
func TestShortLogStartsNoGoroutine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.arrows")
	last := maxGoroutineID(t)
	w, err := Create(path, Meta{}, Options{FlushInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		e := sampleEvent(i)
		w.Append(&e)
	}
	if id := maxGoroutineID(t); id > last {
		t.Errorf("after Create and 100 events: goroutine %d exists, started after the log was created (none may be)", id)
	}
	if w.encoding {
		t.Error("the encoder goroutine was started before any batch was handed over")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, r := readAll(t, path)
	st := r.Meta().Status
	r.Close()
	if len(got) != 100 || !st.Closed || st.Events != 100 {
		t.Fatalf("read %d events, status %+v: want 100 events, closed", len(got), st)
	}
	for i, e := range got {
		want := sampleEvent(i)
		want.Seq = uint64(i + 1)
		if fmt.Sprint(e) != fmt.Sprint(want) {
			t.Fatalf("event %d: got %+v, want %+v", i, e, want)
		}
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(raw, endOfStream) {
		t.Error("the log does not end with the end-of-stream marker")
	}
}

// maxGoroutineID is the highest ID of a live goroutine (not the runtime's
// own). IDs grow, so a goroutine started later has a higher one. Counting
// goroutines cannot tell: the previous test's goroutine may still be
// exiting when the count is taken (under load this test failed so in 24 of
// 400 runs).
func maxGoroutineID(t *testing.T) uint64 {
	t.Helper()
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var highest uint64
	for _, line := range strings.Split(string(buf), "\n") {
		rest, ok := strings.CutPrefix(line, "goroutine ")
		if !ok {
			continue
		}
		idText, _, _ := strings.Cut(rest, " ")
		id, err := strconv.ParseUint(idText, 10, 64)
		if err != nil {
			t.Fatalf("goroutine header %q: %v", line, err)
		}
		if id > highest {
			highest = id
		}
	}
	if highest == 0 {
		t.Fatal("runtime.Stack listed no goroutine")
	}
	return highest
}

// TestEncoderStartsAtFirstHandover: a Flush (or a full batch, or the flush
// timer) starts the encoder; Close then ends it, and what was appended
// after the handover is in the log too.
func TestEncoderStartsAtFirstHandover(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.arrows")
	w, err := Create(path, Meta{}, Options{FlushInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		e := sampleEvent(i)
		w.Append(&e)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if !w.encoding {
		t.Fatal("Flush did not start the encoder")
	}
	for i := 10; i < 20; i++ {
		e := sampleEvent(i)
		w.Append(&e)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-w.encDone:
	default:
		t.Error("Close returned before the encoder goroutine ended")
	}
	got, r := readAll(t, path)
	st := r.Meta().Status
	r.Close()
	if len(got) != 20 || !st.Closed || st.Events != 20 {
		t.Fatalf("read %d events, status %+v: want 20 events, closed", len(got), st)
	}
}

// TestFlushTimerRearmsPerBatch: the flush timer is armed by a batch's first
// event, not by time alone: an idle log is never woken, and each later
// batch is still written within the interval.
func TestFlushTimerRearmsPerBatch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.arrows")
	w, err := Create(path, Meta{}, Options{FlushInterval: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if w.timer != nil {
		t.Fatal("Create armed the flush timer with no event appended")
	}
	for round := 1; round <= 3; round++ {
		e := sampleEvent(round)
		w.Append(&e)
		for deadline := time.Now().Add(10 * time.Second); ; {
			got, r := readAll(t, path)
			r.Close()
			if len(got) == round {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("round %d: event not written by the flush timer (%d in the log)", round, len(got))
			}
			time.Sleep(2 * time.Millisecond)
		}
		w.mu.Lock()
		armed := w.timerArmed
		w.mu.Unlock()
		if armed {
			t.Fatalf("round %d: the timer is still armed after writing the only batch", round)
		}
	}
}

// TestLogFileNotPolled: creating and closing a log does not initialise the
// runtime's network poller (an epoll instance, an eventfd, an epoll_ctl
// that fails and four fcntl calls, all paid by a short capture process):
// os.OpenFile offers every file to it, although a regular file cannot be
// polled. (A log with events arms the flush timer, and Go's timers start
// the poller themselves.)
func TestLogFileNotPolled(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/fd")
	}
	path := filepath.Join(t.TempDir(), "log.arrows")
	cmd := exec.Command(os.Args[0], "-test.run", "^TestFreshProcessChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), freshChildEnv+"="+path, "EVENTLOG_FRESH_EVENTS=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "fd ") {
		t.Fatalf("the child listed no descriptors:\n%s", out)
	}
	poller := func(prefix string) (fds []string) {
		for _, l := range strings.Split(string(out), "\n") {
			if strings.HasPrefix(l, prefix+" ") && (strings.Contains(l, "eventpoll") || strings.Contains(l, "eventfd")) {
				fds = append(fds, l)
			}
		}
		return fds
	}
	if before := poller("before"); len(before) > 0 {
		// Bazel's test main (rules_go's wrapper) starts the poller itself.
		t.Skipf("the test binary started the poller before the log was created (%q): nothing to tell", before)
	}
	for _, l := range poller("fd") {
		t.Errorf("creating a log initialised the network poller: %s", l)
	}
	got, r := readAll(t, path)
	r.Close()
	if len(got) != 0 {
		t.Fatalf("the child's log holds %d events, want none", len(got))
	}
}
