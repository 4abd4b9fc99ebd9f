package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

func compactCmd(args []string, o, e *bytes.Buffer) int { return runCompact(args, o, e) }

func TestCompactCommand(t *testing.T) {
	src := writeEventLog(t, 500, false)
	dst := filepath.Join(t.TempDir(), "run.arrow")
	out, errs, code := runCmd(t, compactCmd, "-o", dst, src)
	if code != 0 || !strings.Contains(out, "2000 events") {
		t.Fatalf("exit %d, %s\n%s", code, errs, out)
	}
	head, _ := os.ReadFile(dst)
	if !bytes.HasPrefix(head, []byte("ARROW1")) || !bytes.HasSuffix(head, []byte("ARROW1")) {
		t.Fatal("output is not an Arrow IPC file")
	}
	before, _, _ := runCmd(t, inspectCmd, "-json", src)
	after, _, _ := runCmd(t, inspectCmd, "-json", dst)
	if before != after || strings.Count(after, "\n") != 2000 {
		t.Fatal("compacted log lists different events")
	}

	// In place, for a log whose writer was killed.
	torn := writeEventLog(t, 10, true)
	out, errs, code = runCmd(t, compactCmd, torn)
	if code != 0 || !strings.Contains(out, "writer was killed") {
		t.Fatalf("exit %d, %s\n%s", code, errs, out)
	}
	r, err := eventlog.Open(torn)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, isTorn := r.Torn(); isTorn {
		t.Error("compacted log still torn")
	}

	if _, errs, code := runCmd(t, compactCmd, "-o", dst, src, torn); code != 2 || !strings.Contains(errs, "usage") {
		t.Errorf("-o with two logs: exit %d, %s", code, errs)
	}
}

// TestCompactRefusesLiveLog: capture compact on the log of a running
// writer says so and leaves the log to its writer.
func TestCompactRefusesLiveLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "live.arrow")
	w, err := eventlog.Create(path, eventlog.Meta{}, eventlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		w.Append(&eventlog.Event{Kind: eventlog.KindCallIn, Site: "s"})
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	_, errs, code := runCmd(t, compactCmd, path)
	want := path + " is being written by a live process (pid " + strconv.Itoa(os.Getpid()) + "); compact it after the process ends"
	if code != 1 || !strings.Contains(errs, "capture compact: "+want) {
		t.Errorf("exit %d, %q; want 1 and %q", code, errs, want)
	}
	for range 10 {
		w.Append(&eventlog.Event{Kind: eventlog.KindCallIn, Site: "s"})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := eventlog.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if st := r.Meta().Status; st.Events != 20 || !st.Complete() {
		t.Errorf("status after the refused compaction: %+v; want 20 events, complete", st)
	}
}
