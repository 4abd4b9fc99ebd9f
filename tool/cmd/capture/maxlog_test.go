package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

// TestMaxLogBytes: capture test caps each test's log (-max-log-bytes): a
// test that makes more events than the cap holds still passes, its log
// ends cleanly under the cap with the rest counted as lost
// (lost_why=size_cap), capture test says so, and replay refuses the log
// with the reason. A CAPTURE_MAX_BYTES in the environment wins.
func TestMaxLogBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with the go command")
	}
	mod := t.TempDir()
	writeModule(t, mod, map[string]string{
		"go.mod": "module example.com/ml\n\ngo 1.26\n",
		"echo/echo.go": `package echo

// Echo returns s.
func Echo(s string) string { return s }
`,
		"echo/echo_test.go": `package echo_test

import (
	"strings"
	"testing"

	"example.com/ml/echo"
)

func TestMany(t *testing.T) {
	s := strings.Repeat("x", 200)
	for i := 0; i < 20000; i++ {
		if echo.Echo(s) != s {
			t.Fatal("Echo")
		}
	}
}
`,
	})
	const limit = 64 << 10
	logs := filepath.Join(t.TempDir(), "logs")
	out, code := runCaptureEnv(t, mod, []string{"CAPTURE_MAX_BYTES="}, "test", "-observe", "example.com/ml/echo", "-logs", logs, "-max-log-bytes", "64KiB", "./echo")
	if code != 0 {
		t.Fatalf("capture test: exit %d\n%s", code, out)
	}
	if !strings.Contains(out, "ok   example.com/ml/echo.TestMany") || !strings.Contains(out, "log capped at 64KiB") {
		t.Errorf("capture test output lacks the passed test and the capped log:\n%s", out)
	}
	log := filepath.Join(logs, "example.com_ml_echo", "TestMany.arrow")
	fi, err := os.Stat(log)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > limit {
		t.Errorf("log is %d bytes; the cap is %d", fi.Size(), limit)
	}
	r, err := eventlog.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	st := r.Meta().Status
	r.Close()
	if !st.Closed || st.LostWhy != "size_cap" || st.Lost == 0 {
		t.Errorf("status %+v; want a closed log with events lost to the size cap", st)
	}
	out, code = runCapture(t, mod, "replay", "-observe", "example.com/ml/echo", log)
	if code == 0 || !strings.Contains(out, "is incomplete") || !strings.Contains(out, "size_cap") {
		t.Errorf("replay of a capped log: exit %d; want the refusal naming the size cap:\n%s", code, out)
	}

	// The environment's cap wins over the flag.
	out, code = runCaptureEnv(t, mod, []string{"CAPTURE_MAX_BYTES=1GB"}, "test", "-observe", "example.com/ml/echo", "-logs", logs, "-max-log-bytes", "64KiB", "./echo")
	if code != 0 || strings.Contains(out, "capped") {
		t.Fatalf("capture test with CAPTURE_MAX_BYTES=1GB: exit %d; want an uncapped log\n%s", code, out)
	}
	if fi, err := os.Stat(log); err != nil || fi.Size() <= limit {
		t.Errorf("log with CAPTURE_MAX_BYTES=1GB: %v, %v; want more than %d bytes", fi, err, limit)
	}
}
