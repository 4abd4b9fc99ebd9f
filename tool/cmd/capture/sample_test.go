package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/probe"
)

// A service captured with sampling (CAPTURE_SAMPLE) writes a startup
// segment and windows, each a segment that starts at a checkpoint: every
// one replays alone and passes, and with a mutation that changes every
// request from the 3,000th on, exactly the windows that hold such a request
// diverge, at their first. capture stats says which window a file is.
func TestSampledCaptureReplays(t *testing.T) {
	const observe = "example.com/flight/svc"
	work, mod, bin := buildTestService(t, "flight", observe, "./cmd/server", "server")
	const (
		n      = 6000
		window = 50
	)
	logs := filepath.Join(work, "logs")
	cmd := exec.Command(bin, strconv.Itoa(n), "plain")
	cmd.Env = append(os.Environ(), probe.EnvLog+"="+filepath.Join(logs, "svc.arrow"), probe.EnvPolicy+"=block",
		probe.EnvCompression+"=none", probe.EnvSample+"=0.1", probe.EnvSampleWindow+"="+strconv.Itoa(window), probe.EnvSampleSeed+"=3")
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "6000 served") {
		t.Fatalf("the sampled run: %v\n%s", err, out)
	}
	segs, _ := filepath.Glob(filepath.Join(logs, "svc.seg*.arrow"))
	sort.Strings(segs)
	if len(segs) < 4 {
		t.Fatalf("segments %v: want the startup segment and at least 3 windows of a run of %d requests at a rate of 0.1 in windows of %d", segs, n, window)
	}
	// Window w starts at the run's quiescent point p (the return of its
	// p-th request) and holds the requests after it.
	first := map[string]int{} // segment -> its first request
	recorded := 0
	for i, s := range segs {
		events, meta, err := readAll(s)
		if err != nil {
			t.Fatal(err)
		}
		calls := 0
		for _, e := range events {
			if e.Kind == eventlog.KindCallIn && strings.HasSuffix(e.Site, "svc.Handle") {
				calls++
			}
		}
		recorded += calls
		if i == 0 {
			first[s] = 1
			continue
		}
		if !startsAtCheckpoint(events) || events[0].Kind == eventlog.KindCallIn {
			t.Errorf("window %s does not start at a checkpoint", s)
		}
		p, err := strconv.Atoi(metaValue(meta.Rotation, "point"))
		if err != nil || metaValue(meta.Rotation, "window") != strconv.Itoa(i) {
			t.Fatalf("window %s: rotation note %q", s, meta.Rotation)
		}
		first[s] = p + 1
		if p+window <= n && calls != window {
			t.Errorf("window %s from request %d holds %d requests, want %d", s, p+1, calls, window)
		}
	}
	t.Logf("%d windows: %d of %d requests recorded (%.3f)", len(segs)-1, recorded, n, float64(recorded)/n)
	out, code := runCapture(t, mod, "stats", segs[1])
	if code != 0 || !strings.Contains(out, "sampling    window 1 (rate 0.1, windows of 50 quiescent points, seed 3): from the run's quiescent point") {
		t.Errorf("capture stats of the first window: exit %d\n%s", code, out)
	}
	out, code = runCapture(t, mod, "replay", "-observe", observe, logs)
	if code != 0 || strings.Count(out, "PASS ") != len(segs) {
		t.Fatalf("replay of the %d segments: exit %d\n%s", len(segs), code, out)
	}

	// Every request from the 3,000th on answers differently: a window
	// diverges if and only if it holds one.
	src := filepath.Join(mod, "svc", "svc.go")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	mutant := strings.Replace(string(b), "s.spent += amount\n", "s.spent += amount\n\tif served >= 3000 {\n\t\ts.spent++\n\t}\n", 1)
	if mutant == string(b) {
		t.Fatal("the mutation does not apply")
	}
	if err := os.WriteFile(src, []byte(mutant), 0o644); err != nil {
		t.Fatal(err)
	}
	reports := filepath.Join(work, "reports")
	out, _ = runCapture(t, mod, "replay", "-observe", observe, "-reports", reports, logs)
	reached := 0
	for i, s := range segs {
		r := readReport(t, filepath.Join(reports, filepath.Base(s)+".json"))
		last := first[s] + window - 1
		if i == 0 {
			last = first[s]
		}
		want := last >= 3000 && first[s] <= n
		if (r.Verdict == "diverged") != want {
			t.Errorf("with the mutant, segment %s (requests %d to %d): %s, want diverged: %v", filepath.Base(s), first[s], last, r.Verdict, want)
			continue
		}
		if want {
			reached++
			if d := r.Divergence; d == nil || d.Reason != "different results" || !strings.Contains(d.Expected, "svc.Handle") {
				t.Errorf("with the mutant, segment %s diverged with %+v, want different results of svc.Handle", filepath.Base(s), d)
			}
		}
	}
	t.Logf("with the mutant, %d of %d windows reach it and diverge:\n%s", reached, len(segs)-1, out)
	if reached == 0 || reached == len(segs)-1 {
		t.Errorf("%d of %d windows reach the mutant: want some before it and some after", reached, len(segs)-1)
	}
}

// metaValue returns the value of key in a rotation note.
func metaValue(note, key string) string {
	for _, f := range strings.Fields(note) {
		if k, v, ok := strings.Cut(f, "="); ok && k == key {
			return v
		}
	}
	return ""
}
