package main

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoroutineInsideOutcallAtEnd: a goroutine that observed code starts
// and that never ends (golang-lru's expirable reaper) was inside an outcall
// when the capture ended: the log has the outcall's CALL_OUT and no
// outcome. Replay leaves the goroutine blocked there, as the capture did,
// and says so in a note; it used to report "the code made a boundary event
// after the log's last event of this goroutine" (expirable's
// TestLoadingExpired, TestLRUWithPurge). A new outcall past the stream's
// end still diverges.
func TestGoroutineInsideOutcallAtEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with the go command")
	}
	mod := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/ua\n\ngo 1.26\n",
		"reap/reap.go": `package reap

import (
	"os"
	"time"
)

// Start starts a goroutine that sleeps for good and returns once it runs.
func Start() string {
	started := make(chan struct{})
	go func() {
		close(started)
		time.Sleep(time.Hour)
		os.Getenv("REAP_AFTER")
	}()
	<-started
	return os.Getenv("REAP_NAME")
}
`,
		"reap/reap_test.go": `package reap_test

import (
	"testing"
	"time"

	"example.com/ua/reap"
)

func TestStart(t *testing.T) {
	reap.Start()
	time.Sleep(100 * time.Millisecond) // the goroutine reaches its sleep
}
`,
	}
	checkLeftInOutcall(t, mod, files, "example.com/ua/reap", "TestStart",
		"1 goroutines started by observed code were inside an outcall when the capture ended",
		filepath.Join("reap", "reap.go"), "close(started)\n", "close(started)\n\t\tos.Getenv(\"REAP_BEFORE\")\n")
}

// TestDrivenInsideOutcallAtEnd: the same for a goroutine that external code
// starts into observed code (a driven stream): the capture ended while it
// was inside an outcall, so the log has the CALL_OUT without its outcome or
// the incall's return. The waitgroup corpus program made such logs about
// once in ten captures (its last fan.Work's deferred wg.Done wakes main,
// which returns before the worker records Done's return), and their replay
// always diverged ("the code made a boundary event after the log's last
// event of this goroutine", expected end of the stream, actual waiting for
// the result of (*sync.WaitGroup).Done). Replay leaves the goroutine
// blocked there, with a note; a new outcall before it still diverges.
func TestDrivenInsideOutcallAtEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with the go command")
	}
	mod := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/ub\n\ngo 1.26\n",
		"work/work.go": `package work

import (
	"os"
	"time"
)

// Block reads a variable and sleeps for good.
func Block() {
	os.Getenv("WORK_NAME")
	time.Sleep(time.Hour)
}
`,
		"work/work_test.go": `package work_test

import (
	"testing"
	"time"

	"example.com/ub/work"
)

func TestBlock(t *testing.T) {
	go work.Block()
	time.Sleep(100 * time.Millisecond) // the goroutine reaches its sleep
}
`,
	}
	checkLeftInOutcall(t, mod, files, "example.com/ub/work", "TestBlock",
		"1 goroutines that external code started were inside an outcall when the capture ended",
		filepath.Join("work", "work.go"), "os.Getenv(\"WORK_NAME\")\n", "os.Getenv(\"WORK_NAME\")\n\tos.Getenv(\"WORK_AFTER\")\n")
}

// checkLeftInOutcall writes the module mod, captures test of its package
// pkg (pkg's last element is its folder) and replays the log: it must pass
// with note, on a goroutine left in time.Sleep. Then, in file (relative to
// mod), old becomes new, an outcall the log does not have before the
// goroutine's sleep: the replay must diverge at it (os.Getenv).
func checkLeftInOutcall(t *testing.T, mod string, files map[string]string, pkg, test, note, file, old, new string) {
	t.Helper()
	dir := path.Base(pkg)
	writeModule(t, mod, files)
	logs := filepath.Join(t.TempDir(), "logs")
	if out, code := runCapture(t, mod, "test", "-observe", pkg, "-logs", logs, "./"+dir); code != 0 {
		t.Fatalf("capture test: exit %d\n%s", code, out)
	}
	log := filepath.Join(logs, strings.ReplaceAll(pkg, "/", "_"), test+".arrow")
	out, code := runCapture(t, mod, "replay", "-v", "-observe", pkg, log)
	if code != 0 || !strings.Contains(out, "PASS") {
		t.Fatalf("replay: exit %d, want a pass\n%s", code, out)
	}
	if !strings.Contains(out, note) || !strings.Contains(out, "time.Sleep") {
		t.Fatalf("replay passed without the note on the goroutine left in time.Sleep:\n%s", out)
	}

	// Past the stream's end: the goroutine makes an outcall the log does
	// not have before its sleep.
	src := filepath.Join(mod, file)
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	mutated := strings.Replace(string(b), old, new, 1)
	if err := os.WriteFile(src, []byte(mutated), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = runCapture(t, mod, "replay", "-observe", pkg, log)
	if code != 1 || !strings.Contains(out, "DIVERGED") || !strings.Contains(out, "os.Getenv") {
		t.Fatalf("replay of a goroutine making another outcall: exit %d, want a divergence at os.Getenv\n%s", code, out)
	}
}
