package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/probe"
)

// TestReplayKilled: the busy program (testdata/killed: 4 goroutines making
// incalls without pause, each taking a shared lock, making outcalls and
// handing work to workers the service started) is SIGKILLed at 20 random
// moments, in the middle of incalls. Each log (state=open) replays to its
// end with `capture replay DIR`, passing with a note that says where it
// ended, not with a false divergence at the first event past a goroutine's
// end; a bad log beside them is reported without stopping them. A change of the observed code still diverges in every log that holds
// a complete incall: the part before the cut is judged as strictly as a
// closed log.
func TestReplayKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with the go command")
	}
	runs := 20
	work := t.TempDir()
	mod := filepath.Join(work, "module")
	copyDir(t, filepath.Join(repoRoot(t), "testdata", "killed"), mod)
	bin := filepath.Join(work, "busy")
	const observe = "example.com/busy/svc"
	if out, code := runCapture(t, mod, "build", "-observe", observe, "-o", bin, "./cmd/busy"); code != 0 {
		t.Fatalf("capture build: exit %d\n%s", code, out)
	}
	logs := filepath.Join(work, "logs")
	if err := os.Mkdir(logs, 0o755); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 11))
	complete := map[string]int{} // log -> its complete incalls (RETURN_IN events)
	cut := 0                     // incalls in progress when the logs end
	for run := range runs {
		log := filepath.Join(logs, fmt.Sprintf("killed-%02d.arrow", run))
		killAfterFlush(t, bin, log, time.Duration(rng.IntN(150))*time.Millisecond)
		complete[log] = countKind(t, log, eventlog.KindReturnIn)
		cut += countKind(t, log, eventlog.KindCallIn) - complete[log]
	}
	if cut == 0 {
		t.Fatal("no log ends inside an incall: the test tests nothing")
	}

	// A folder of logs beside them that holds a file that is no log and a
	// named pipe: both are reported, and the killed logs still replay.
	extra := filepath.Join(work, "extra")
	if err := os.Mkdir(extra, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(extra, "bad.arrow"), []byte("not a log"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(extra, "pipe.arrow"), 0o644); err != nil {
		t.Fatal(err)
	}

	reports := filepath.Join(work, "reports")
	out, code := runCapture(t, mod, "replay", "-observe", observe, "-reports", reports, logs, extra)
	if code != 1 || strings.Count(out, "PASS ") != runs || !strings.Contains(out, fmt.Sprintf("capture replay: 2 of %d logs failed: ", runs+2)) ||
		!strings.Contains(out, "bad.arrow (unreadable)") || !strings.Contains(out, "pipe.arrow (not read)") {
		t.Fatalf("replay of %d killed logs and 2 bad ones: exit %d, want 1, %d passes and a summary\n%s", runs, code, runs, out)
	}
	var events, replayed, withNote int
	for log := range complete {
		r := readReport(t, filepath.Join(reports, filepath.Base(log)+".json"))
		events += r.Events
		replayed += r.Replayed
		if strings.HasPrefix(r.Ended, "log ended while the process ran") {
			withNote++
		}
		if r.Replayed != r.Events {
			t.Errorf("%s: replayed %d of %d events", log, r.Replayed, r.Events)
		}
	}
	if withNote != runs {
		t.Errorf("%d of %d passes say where the log ended\n%s", withNote, runs, out)
	}
	t.Logf("%d killed logs passed, %d with the note; %d of %d events replayed; the logs end inside %d incalls", runs, withNote, replayed, events, cut)

	// A mutant: a different result of every incall. Every log with a
	// complete incall must diverge, at a RETURN_IN (within the part
	// before the cut).
	mut := filepath.Join(work, "mutant")
	copyDir(t, filepath.Join(repoRoot(t), "testdata", "killed"), mut)
	file := filepath.Join(mut, "svc", "svc.go")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	const old = "return c*1000 + total + stored"
	if !strings.Contains(string(b), old) {
		t.Fatalf("svc.go lacks %q", old)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(b), old, "return c*1000 + total + stored + 1", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	mreports := filepath.Join(work, "mutant-reports")
	out, code = runCapture(t, mut, "replay", "-observe", observe, "-reports", mreports, logs)
	if code != 1 {
		t.Fatalf("replay of the mutant: exit %d, want 1\n%s", code, out)
	}
	diverged := 0
	for log, n := range complete {
		r := readReport(t, filepath.Join(mreports, filepath.Base(log)+".json"))
		switch {
		case n == 0 && r.Verdict != "pass":
			t.Errorf("%s holds no complete incall, but the mutant's replay %s", log, r.Verdict)
		case n > 0 && (r.Verdict != "diverged" || r.Divergence == nil || !strings.Contains(r.Divergence.Reason, "different results")):
			t.Errorf("%s holds %d complete incalls, but the mutant's replay: %s %+v", log, n, r.Verdict, r.Divergence)
		case n > 0:
			diverged++
		}
	}
	if diverged == 0 {
		t.Errorf("no log held a complete incall: the kills came too early\n%s", out)
	}
	t.Logf("mutant: %d of %d logs diverged (the others held no complete incall)", diverged, runs)
}

// killAfterFlush runs the capture binary bin writing log, waits until the
// log holds events (its writer flushed), lets it run for delay more and
// SIGKILLs it.
func killAfterFlush(t *testing.T, bin, log string, delay time.Duration) {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), probe.EnvLog+"="+log)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if r, err := eventlog.Open(log); err == nil {
			n := r.Meta().Status.Events
			r.Close()
			if n > 0 {
				break
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(delay)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
		t.Fatalf("%s ended before it was killed: %v\n%s", bin, err, out.String())
	}
	r, err := eventlog.Open(log)
	if err != nil {
		t.Fatalf("reading the killed log: %v", err)
	}
	defer r.Close()
	if r.Meta().Status.Closed {
		t.Fatalf("%s: a killed log says state=done", log)
	}
}

func countKind(t *testing.T, log string, kind eventlog.Kind) int {
	t.Helper()
	r, err := eventlog.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n := 0
	for {
		e, err := r.Next()
		if err != nil {
			return n
		}
		if e.Kind == kind {
			n++
		}
	}
}

func readReport(t *testing.T, path string) *probe.Report {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r probe.Report
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &r
}
