package reexec_test

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"example.com/repros/reexec"
)

const childEnv = "REEXEC_CHILD"

// TestMain runs the child's part when the test binary is started again by
// TestChildProcess, as examples/shop's TestMain runs the shop's main.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		for i := range 20000 {
			fmt.Println(reexec.Greet(fmt.Sprint("child ", i)))
		}
		return // the exit status 0, and capture's deferred end of the log
	}
	os.Exit(m.Run())
}

// The child process must not write into the parent's log.
func TestChildProcess(t *testing.T) {
	if g := reexec.Greet("parent"); g != "hello parent" {
		t.Fatalf("Greet = %q", g)
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), childEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "hello child 19999") {
		t.Fatalf("child: %v, output %s; want 20000 greetings", err, out)
	}
	for i := range 50 {
		if g := reexec.Greet(fmt.Sprint("parent ", i)); g != fmt.Sprint("hello parent ", i) {
			t.Fatalf("Greet = %q", g)
		}
	}
}
