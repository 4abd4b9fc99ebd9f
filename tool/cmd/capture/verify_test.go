package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

func verifyCmd(args []string, o, e *bytes.Buffer) int { return runVerify(args, o, e) }

// TestVerify: one line per log, ok or open or the damage; exit 1 if any
// log is damaged.
func TestVerify(t *testing.T) {
	dir := t.TempDir()
	good := writeEventLog(t, 25, false) // 100 events, closed
	open := writeEventLog(t, 10, true)  // 40 events flushed, writer still running
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.arrows")
	os.WriteFile(cut, b[:len(b)-100], 0o644)
	flipped := filepath.Join(dir, "flipped.arrows")
	f := bytes.Clone(b)
	f[len(f)-40] ^= 0x10 // in the last batch's values
	os.WriteFile(flipped, f, 0o644)

	out, errs, code := runCmd(t, verifyCmd, good, open)
	want := fmt.Sprintf("%s: ok, 100 events, closed, format %d\n", good, eventlog.FormatVersion) +
		fmt.Sprintf("%s: open (writer killed or still running), 40 events readable, format %d\n", open, eventlog.FormatVersion)
	if code != 0 || out != want || errs != "" {
		t.Fatalf("exit %d\n%s\nwant\n%s\nstderr %s", code, out, want, errs)
	}

	out, errs, code = runCmd(t, verifyCmd, good, cut, flipped)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 1 || len(lines) != 3 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if want := "log " + cut + " is truncated: 0 of 100 events; it was cut after it was closed (copy it again)"; lines[1] != want {
		t.Errorf("cut log: %s\nwant %s", lines[1], want)
	}
	if !strings.HasPrefix(lines[2], "log "+flipped+": batch 1 (events 1-100, offset ") || !strings.HasSuffix(lines[2], ") fails its checksum: the file is corrupt") {
		t.Errorf("flipped log: %s", lines[2])
	}
	if want := "capture verify: 2 of 3 logs failed: " + cut + " (damaged), " + flipped + " (damaged)\n"; errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}

	// A log of format 3, before checksums, is intact; compacted, it has
	// them and is format 4.
	v3 := "../../../runtime/eventlog/testdata/v3.arrows"
	if _, err := os.Stat(v3); err == nil {
		out, _, code = runCmd(t, verifyCmd, v3)
		if want := v3 + ": ok, 1,000 events, closed, format 3 (no checksums: capture compact adds them)\n"; code != 0 || out != want {
			t.Errorf("exit %d: %s\nwant %s", code, out, want)
		}
		c := filepath.Join(dir, "v4.arrow")
		if _, err := eventlog.Compact(c, v3, eventlog.CompactOptions{}); err != nil {
			t.Fatal(err)
		}
		out, _, code = runCmd(t, verifyCmd, c)
		if want := c + ": ok, 1,000 events, closed, format 4\n"; code != 0 || out != want {
			t.Errorf("exit %d: %s\nwant %s", code, out, want)
		}
	}
}

// TestVerifyRefusesSpecialFiles: a FIFO given to verify is refused at once
// (opening it would wait for a writer), and the other logs are checked.
func TestVerifyRefusesSpecialFiles(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "log.arrow")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	good := writeEventLog(t, 1, false)
	done := make(chan struct{})
	var out string
	var code int
	go func() {
		out, _, code = runCmd(t, verifyCmd, fifo, good)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Second):
		t.Fatal("capture verify still blocked on a FIFO after a second")
	}
	if code != 1 || !strings.Contains(out, fifo+": a named pipe (FIFO)") || !strings.Contains(out, good+": ok, 4 events") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}
