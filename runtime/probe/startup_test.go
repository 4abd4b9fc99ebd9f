package probe

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

// TestLogOptionsPolicyAndSizeCap: a capture build drops events when its
// writer falls behind unless CAPTURE_POLICY=block; CAPTURE_MAX_BYTES takes
// sizes with units; a bad value is an error (capture off, one line).
func TestLogOptionsPolicyAndSizeCap(t *testing.T) {
	for _, tc := range []struct {
		policy, max string
		want        eventlog.Backpressure
		wantMax     int64
		err         string
	}{
		{"", "", eventlog.Drop, 0, ""},
		{"drop", "", eventlog.Drop, 0, ""},
		{"block", "", eventlog.Block, 0, ""},
		{"wait", "", 0, 0, `CAPTURE_POLICY="wait": want drop (the default) or block`},
		{"", "64MiB", eventlog.Drop, 64 << 20, ""},
		{"", "64M", eventlog.Drop, 64 << 20, ""},
		{"", "1GB", eventlog.Drop, 1000 * 1000 * 1000, ""},
		{"", "2GiB", eventlog.Drop, 2 << 30, ""},
		{"", "500000", eventlog.Drop, 500000, ""},
		{"", "16KiB", eventlog.Drop, 16 << 10, ""},
		{"", "12XB", 0, 0, `CAPTURE_MAX_BYTES="12XB": unknown unit`},
		{"", "MiB", 0, 0, `CAPTURE_MAX_BYTES="MiB": want a size`},
		{"", "0", 0, 0, `CAPTURE_MAX_BYTES="0"`},
		{"", "99999999999TiB", 0, 0, `CAPTURE_MAX_BYTES="99999999999TiB"`},
	} {
		opts, err := logOptions(envOf(EnvPolicy, tc.policy, EnvMaxBytes, tc.max))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("policy %q max %q: error %v, want one containing %q", tc.policy, tc.max, err, tc.err)
			}
			continue
		}
		if err != nil || opts.Policy != tc.want || opts.MaxBytes != tc.wantMax {
			t.Errorf("policy %q max %q: policy %v, max %d, %v; want %v, %d", tc.policy, tc.max, opts.Policy, opts.MaxBytes, err, tc.want, tc.wantMax)
		}
	}
}

// TestOpenLogLeavesExistingFilesAlone: CAPTURE_LOG naming an existing file,
// or a symbolic link, is refused (capture off) and nothing is written
// there.
func TestOpenLogLeavesExistingFilesAlone(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "old.arrow")
	target := filepath.Join(dir, "victim")
	link := filepath.Join(dir, "link.arrow")
	for _, p := range []string{existing, target} {
		if err := os.WriteFile(p, []byte("keep me"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{existing, link} {
		w, _, err := openLog(envOf(EnvLog, p))
		if err == nil {
			w.Close()
			t.Fatalf("%s: capture started", p)
		}
		if !strings.Contains(err.Error(), "already exists") {
			t.Errorf("%s: %v; want it to say that the file exists", p, err)
		}
	}
	for _, p := range []string{existing, target} {
		if b, _ := os.ReadFile(p); string(b) != "keep me" {
			t.Errorf("%s was changed: %q", p, b)
		}
	}
}

// TestOpenLogPermissions: the log directory a capture makes is private
// (0700), and so is the log (0600).
func TestOpenLogPermissions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "logs")
	w, path, err := openLog(envOf(EnvDir, dir))
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	explicit := filepath.Join(t.TempDir(), "b", "test.arrow")
	w, _, err = openLog(envOf(EnvLog, explicit))
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	for p, want := range map[string]os.FileMode{dir: 0o700, path: 0o600, filepath.Dir(explicit): 0o700, explicit: 0o600} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := st.Mode().Perm(); got != want {
			t.Errorf("%s: mode %v, want %v", p, got, want)
		}
	}
}

// TestOpenLogNoSharedFallback: when ./capture-logs cannot be made, capture
// is off with an error naming it and CAPTURE_DIR; no log goes to a shared
// directory such as /tmp/rules_capture.
func TestOpenLogNoSharedFallback(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("capture-logs", nil, 0o644); err != nil { // a file where the directory would be
		t.Fatal(err)
	}
	shared := filepath.Join(os.TempDir(), "rules_capture")
	before, _ := os.ReadDir(shared)
	w, path, err := openLog(envOf())
	if err == nil {
		w.Close()
		t.Fatalf("capture started, log %s", path)
	}
	if !strings.Contains(err.Error(), "./capture-logs") || !strings.Contains(err.Error(), EnvDir) {
		t.Errorf("error %v; want it to name ./capture-logs and %s", err, EnvDir)
	}
	if after, _ := os.ReadDir(shared); len(after) != len(before) {
		t.Errorf("%s has %d entries, had %d", shared, len(after), len(before))
	}
}

// TestOpenLogSizeCap: CAPTURE_MAX_BYTES caps the log; the status says how
// many events the cap cost, and replay refuses the log with a line saying
// why.
func TestOpenLogSizeCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "capped.arrow")
	w, _, err := openLog(envOf(EnvLog, path, EnvMaxBytes, "16KiB", EnvPolicy, "block"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5000 {
		w.Append(&eventlog.Event{Kind: eventlog.KindCallIn, Site: "example.com/calc.Add", Values: []byte{byte(i), byte(i >> 8), 1, 2, 3, 4, 5, 6}})
	}
	w.Close() // its error repeats the status
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := eventlog.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	st := r.Meta().Status
	r.Close()
	if fi.Size() > 16<<10 || st.LostWhy != "size_cap" || st.Lost == 0 || st.Events+st.Lost != 5000 {
		t.Errorf("%d bytes, status %+v; want at most 16 KiB, the rest of 5000 events lost to size_cap", fi.Size(), st)
	}
	_, err = loadLog(path)
	if err == nil || !strings.Contains(err.Error(), "events were dropped while capturing") || !strings.Contains(err.Error(), EnvMaxBytes) {
		t.Errorf("loading the capped log for replay: %v; want a refusal naming %s", err, EnvMaxBytes)
	}
}

// TestReplayRefusesDroppedEvents: a log with events dropped in its middle
// (Drop policy) is refused by replay with a clear reason, instead of a
// divergence where nothing diverged or a pass that skipped calls.
func TestReplayRefusesDroppedEvents(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dropped.arrow")
	w, err := eventlog.Create(path, eventlog.Meta{}, eventlog.Options{MaxValueBytes: 16})
	if err != nil {
		t.Fatal(err)
	}
	w.Append(&eventlog.Event{Kind: eventlog.KindCallIn, Site: "example.com/calc.Add"})
	w.Append(&eventlog.Event{Kind: eventlog.KindReturnIn, Site: "example.com/calc.Add", Values: make([]byte, 64)}) // too large: dropped
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	_, err = loadLog(path)
	if err == nil || !strings.Contains(err.Error(), "1 events were dropped while capturing") || !strings.Contains(err.Error(), EnvPolicy+"=block") {
		t.Errorf("loading a log with a dropped event: %v; want a refusal that says so", err)
	}
}

// TestCloseBoundedOnStalledDisk: with the drop policy, closing the log at
// exit waits at most closeWait for a writer stuck on its disk, and the
// program goes on; the log then reads as one whose writer was killed.
func TestCloseBoundedOnStalledDisk(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stalled.arrow")
	w, _, err := openLog(envOf(EnvLog, path)) // the default policy: drop
	if err != nil {
		t.Fatal(err)
	}
	w.Append(&eventlog.Event{Kind: eventlog.KindCallIn, Site: "example.com/calc.Add"})
	release := make(chan struct{})
	var once sync.Once
	answer := func() { once.Do(func() { close(release) }) }
	// An unbounded close would return when the disk answers, after 3 s.
	time.AfterFunc(3*time.Second, answer)
	savedClose, savedWait := closeWriter, closeWait
	closeWriter = func(w *eventlog.Writer) error { <-release; return w.Close() }
	closeWait = 100 * time.Millisecond
	rec.w, rec.path = w, path
	t.Cleanup(func() {
		<-release
		closeWriter, closeWait = savedClose, savedWait
		rec.w, rec.path = nil, ""
		rec.closed.Store(false)
	})
	start := time.Now()
	closeLog()
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("closeLog waited %v for a stalled disk; want at most about closeWait (100ms)", took)
	}
	defer answer() // the disk answers once the log has been read below
	r, err := eventlog.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Meta().Status.Closed {
		t.Errorf("status %+v: the close did not finish, want state=open", r.Meta().Status)
	}
}
