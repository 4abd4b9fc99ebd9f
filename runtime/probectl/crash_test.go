package probectl

import (
	"errors"
	"strings"
	"testing"
)

// A replay process that died of a panic nothing recovered gets a
// divergence report naming the panic and where it happened; output without
// a panic or fatal error is no verdict.
func TestCrashReport(t *testing.T) {
	out := []byte("divergence at seq 12 (stream 3): different arguments\n" +
		"panic: runtime error: invalid memory address or nil pointer dereference [recovered, repanicked]\n" +
		"[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4a1b2c]\n\n" +
		"goroutine 21 [running]:\n" +
		"sync.(*WaitGroup).Go.func1.1()\n" +
		"\t/usr/local/go/src/sync/waitgroup.go:251 +0x4c\n" +
		"panic({0x5e2f40?, 0x8a3c10?})\n" +
		"\t/usr/local/go/src/runtime/panic.go:783 +0x132\n")
	r, ok := CrashReport("/logs/t.arrow", CheckStrict, errors.New("exit status 2"), out)
	if !ok {
		t.Fatal("no report for a panic")
	}
	d := r.Divergence
	if r.Verdict != "diverged" || d == nil || r.Log != "/logs/t.arrow" || r.Check != CheckStrict {
		t.Fatalf("report %+v", r)
	}
	if !strings.HasPrefix(d.Actual, "panic: runtime error: invalid memory address") || !strings.Contains(d.Reason, "exit status 2") {
		t.Errorf("divergence %+v", d)
	}
	if d.Pos != "/usr/local/go/src/sync/waitgroup.go:251" {
		t.Errorf("position %q", d.Pos)
	}
	if _, ok := CrashReport("/logs/t.arrow", CheckStrict, errors.New("exit status 1"), []byte("no such file\n")); ok {
		t.Error("a report for output without a panic")
	}
	r, ok = CrashReport("/logs/t.arrow", CheckStrict, errors.New("exit status 2"), []byte("fatal error: all goroutines are asleep - deadlock!\n"))
	if !ok || !strings.HasPrefix(r.Divergence.Actual, "fatal error: all goroutines are asleep") {
		t.Errorf("fatal error: %v %+v", ok, r)
	}
}
