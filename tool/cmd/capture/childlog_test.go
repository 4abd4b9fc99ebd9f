package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestChildProcessLeavesTheParentsLogAlone: a test that runs its own test
// binary again as a child process (examples/shop's TestBadFlagsExitWithUsage
// and TestSIGTERMShutsDownGracefully run the shop's main that way) passes
// the child its environment, CAPTURE_LOG included. The child, a capture
// build of the same observed set, created the parent's log again and wrote
// its own events into it while the parent went on writing at its offsets:
// the test's log held the child's header and events, or was corrupt
// ("corrupt event log at offset 2336"; study repro reexec). Now the child
// captures nothing, says so on its standard error, and the log is the
// parent's alone.
func TestChildProcessLeavesTheParentsLogAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with the go command")
	}
	mod := t.TempDir()
	writeModule(t, mod, map[string]string{
		"go.mod": "module example.com/cl\n\ngo 1.26\n",
		"greet/greet.go": `package greet

// Greet is an incall.
func Greet(name string) string { return "hello " + name }
`,
		"greet/greet_test.go": `package greet_test

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"example.com/cl/greet"
)

func TestMain(m *testing.M) {
	if os.Getenv("GREET_CHILD") == "1" {
		for i := range 20000 { // more than one batch of the child's log
			greet.Greet(fmt.Sprint("child ", i))
		}
		fmt.Println("child done")
		return // exit status 0, after the capture's deferred end of its log
	}
	os.Exit(m.Run())
}

func TestChild(t *testing.T) {
	greet.Greet("parent")
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "GREET_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "child done") {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if os.Getenv("CAPTURE_LOG") != "" && !strings.Contains(string(out), "capture disabled in this process: CAPTURE_LOG=") {
		t.Fatalf("the child captured into its parent's log; its output:\n%s", out)
	}
	greet.Greet("parent again")
}
`,
	})
	logs := filepath.Join(t.TempDir(), "logs")
	if out, code := runCapture(t, mod, "test", "-observe", "example.com/cl/greet", "-logs", logs, "./greet"); code != 0 {
		t.Fatalf("capture test: exit %d\n%s", code, out)
	}
	log := filepath.Join(logs, "example.com_cl_greet", "TestChild.arrow")
	fi, err := os.Stat(log)
	if err != nil {
		t.Fatal(err)
	}
	// The parent's 4 events take a few KiB; the child's 40,000 (before the
	// fix) some 200 KiB.
	if fi.Size() > 32<<10 {
		t.Errorf("the log is %d bytes: it holds more than the parent's 4 events", fi.Size())
	}
	out, code := runCapture(t, mod, "replay", "-observe", "example.com/cl/greet", log)
	if code != 0 || !strings.Contains(out, "PASS") || !strings.Contains(out, "(4 events") {
		t.Fatalf("replay: exit %d, want a pass of the parent's 4 events\n%s", code, out)
	}
}
