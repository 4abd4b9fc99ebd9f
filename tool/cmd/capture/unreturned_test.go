package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDrivenInsideIncallAtEnd: a goroutine that the test starts into
// observed code was still inside the incall when the test returned and the
// capture's process ended: the log has the incall's CALL_IN and no return
// (iancoleman/strcase's TestConcurrency starts 10,000 goroutines calling
// the package and does not wait for them). Replay performs the incall,
// which returns past the stream's last event; it used to report "the code
// made a boundary event after the log's last event of this goroutine".
// Replay now leaves the goroutine there, with a note. An outcall the log
// does not have, before the return, still diverges.
func TestDrivenInsideIncallAtEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with the go command")
	}
	mod := t.TempDir()
	writeModule(t, mod, map[string]string{
		"go.mod": "module example.com/uc\n\ngo 1.26\n",
		"spin/spin.go": `package spin

// Count counts for a while, without crossing the boundary.
func Count(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i % 7
	}
	return s
}

// Forever counts without end (its sum never turns negative in practice),
// without crossing the boundary.
func Forever() int {
	s := 0
	for i := 0; ; i++ {
		if s += i % 7; s < 0 {
			return s
		}
	}
}
`,
		"spin/spin_test.go": `package spin_test

import (
	"testing"
	"time"

	"example.com/uc/spin"
)

func TestCount(t *testing.T) {
	go spin.Count(1 << 32) // far longer than the test
	time.Sleep(50 * time.Millisecond)
}

func TestForever(t *testing.T) {
	go spin.Forever() // never returns
	time.Sleep(50 * time.Millisecond)
}
`,
	})
	const pkg = "example.com/uc/spin"
	logs := filepath.Join(t.TempDir(), "logs")
	if out, code := runCapture(t, mod, "test", "-observe", pkg, "-logs", logs, "./spin"); code != 0 {
		t.Fatalf("capture test: exit %d\n%s", code, out)
	}
	log := filepath.Join(logs, "example.com_uc_spin", "TestCount.arrow")

	// A goroutine that never returns (TestLeftRunningAtEnd, in effect):
	// replay leaves it running once the rest of the log is replayed and a
	// stall has passed, as the capture's process ended with it running,
	// instead of waiting for it without end.
	forever := filepath.Join(logs, "example.com_uc_spin", "TestForever.arrow")
	out, code := runCaptureEnv(t, mod, []string{"CAPTURE_REPLAY_STALL=1s"}, "replay", "-v", "-observe", pkg, forever)
	if code != 0 || !strings.Contains(out, "PASS") {
		t.Fatalf("replay of a goroutine that never returns: exit %d, want a pass\n%s", code, out)
	}
	if !strings.Contains(out, "1 goroutines that external code started were still running 1s after every event of the log was replayed") || !strings.Contains(out, "spin.Forever") {
		t.Fatalf("replay passed without the note on the goroutine left running in spin.Forever:\n%s", out)
	}
	// The replayed goroutine counts to the end: a shorter count keeps the
	// replay short.
	src := filepath.Join(mod, "spin", "spin.go")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	short := strings.Replace(string(b), "i < n;", "i < n>>12;", 1)
	if err := os.WriteFile(src, []byte(short), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = runCapture(t, mod, "replay", "-v", "-observe", pkg, log)
	if code != 0 || !strings.Contains(out, "PASS") {
		t.Fatalf("replay: exit %d, want a pass\n%s", code, out)
	}
	if !strings.Contains(out, "1 goroutines that external code started were inside an incall when the capture ended") || !strings.Contains(out, "spin.Count") {
		t.Fatalf("replay passed without the note on the goroutine left in spin.Count:\n%s", out)
	}

	// An outcall the log does not have, before the return: a divergence.
	mutated := strings.Replace(short, "\treturn s\n", "\tos.Getenv(\"SPIN\")\n\treturn s\n", 1)
	mutated = strings.Replace(mutated, "package spin\n", "package spin\n\nimport \"os\"\n", 1)
	if err := os.WriteFile(src, []byte(mutated), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = runCapture(t, mod, "replay", "-observe", pkg, log)
	if code != 1 || !strings.Contains(out, "DIVERGED") || !strings.Contains(out, "os.Getenv") {
		t.Fatalf("replay of a goroutine making another outcall: exit %d, want a divergence at os.Getenv\n%s", code, out)
	}
}
