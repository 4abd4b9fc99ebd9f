package main

// The corpus test: for every program in testdata/corpus (one small
// multi-package module per construct, described by its corpus.json) it
//
//	(a) builds a capture variant and runs it (and/or runs its tests under
//	    capture), producing logs;
//	(b) replays every log against the unchanged code: must pass;
//	(c) replays them against mutated copies of the observed package: must
//	    report a divergence at the expected event;
//	(d) replays them hermetically: the harness alone, with an empty
//	    environment and, where the machine allows, no network (unshare -n).
//
// Needs the go command (not available in a Bazel sandbox).

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rules-capture/rules_capture/runtime/probe"
)

type corpusSpec struct {
	Observe []string `json:"observe"`
	Runs    []struct {
		Main      string            `json:"main"`
		Args      []string          `json:"args"`
		Env       map[string]string `json:"env"`
		WantExit  int               `json:"want_exit"`
		WantInErr string            `json:"want_stderr"` // e.g. the original file:line of a panic
	} `json:"runs"`
	// Secrets must appear nowhere in the logs: not in their bytes
	// (compressed or not) nor in their decoded values (docs/redaction.md).
	Secrets []string `json:"secrets"`
	Test    string   `json:"test"`  // package pattern for `capture test`
	Check   string   `json:"check"` // check level of the replays of the unchanged code (default strict)
	// Race builds the capture variant and the replay harness with the race
	// detector: a reported race fails the capture run or the replay.
	Race bool `json:"race"`
	// RepeatReplay replays each log this many times with the same harness
	// and requires the same sequence of released events every time.
	RepeatReplay int `json:"repeat_replay"`
	Mutants      []struct {
		Name   string `json:"name"`
		File   string `json:"file"`
		Old    string `json:"old"`
		New    string `json:"new"`
		Check  string `json:"check"`
		Expect struct {
			Kind   string `json:"kind"`   // kind of the expected (logged) event
			Site   string `json:"site"`   // site of the expected event
			Reason string `json:"reason"` // substring of the reason
			Pos    string `json:"pos"`    // substring of the reported position
			Log    string `json:"log"`    // only logs whose name contains this
		} `json:"expect"`
		WantPass bool `json:"want_pass"` // the mutation is invisible at this check level
	} `json:"mutants"`
}

var captureBin string

func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		// The corpus and build-action tests need the go command; the rest of
		// the package's tests do not.
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "capture-bin-")
	if err != nil {
		panic(err)
	}
	captureBin = filepath.Join(dir, "capture")
	out, err := exec.Command("go", "build", "-o", captureBin, ".").CombinedOutput()
	if err != nil {
		os.Stderr.Write(out)
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func repoRoot(t testing.TB) string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(filepath.Dir(filepath.Dir(wd)))
}

func runCapture(t *testing.T, dir string, args ...string) (string, int) {
	t.Helper()
	return runCaptureEnv(t, dir, nil, args...)
}

// runCaptureEnv runs the capture tool with env added to the environment
// (GOFLAGS=-race for race-detector builds).
func runCaptureEnv(t *testing.T, dir string, env []string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(captureBin, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "CAPTURE_ROOT="+repoRoot(t)), env...)
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("capture %v: %v", args, err)
	}
	return string(out), code
}

func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with the go command")
	}
	root := repoRoot(t)
	entries, err := os.ReadDir(filepath.Join(root, "testdata", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		specPath := filepath.Join(root, "testdata", "corpus", e.Name(), "corpus.json")
		b, err := os.ReadFile(specPath)
		if err != nil {
			continue
		}
		var spec corpusSpec
		if err := json.Unmarshal(b, &spec); err != nil {
			t.Fatalf("%s: %v", specPath, err)
		}
		t.Run(e.Name(), func(t *testing.T) {
			t.Parallel()
			testProgram(t, filepath.Join(root, "testdata", "corpus", e.Name()), &spec)
		})
	}
}

func testProgram(t *testing.T, src string, spec *corpusSpec) {
	work := t.TempDir()
	mod := filepath.Join(work, "module")
	copyDir(t, src, mod)
	logs := filepath.Join(work, "logs")
	observe := strings.Join(spec.Observe, ",")
	var buildEnv []string
	if spec.Race {
		buildEnv = []string{"GOFLAGS=-race"}
	}

	// (a) capture
	for i, r := range spec.Runs {
		bin := filepath.Join(work, "bin")
		if out, code := runCaptureEnv(t, mod, buildEnv, "build", "-observe", observe, "-o", bin, r.Main); code != 0 {
			t.Fatalf("capture build: exit %d\n%s", code, out)
		}
		cmd := exec.Command(bin, r.Args...)
		cmd.Dir = mod
		cmd.Env = append(os.Environ(), probe.EnvLog+"="+filepath.Join(logs, "run"+string(rune('0'+i))+".arrow"), probe.EnvPolicy+"=block")
		cmd.Env = append(cmd.Env, checkpointCaptureEnv...)
		for k, v := range r.Env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != r.WantExit {
			t.Fatalf("capture run %d: exit %d, want %d\n%s", i, code, r.WantExit, out)
		}
		if r.WantInErr != "" && !strings.Contains(string(out), r.WantInErr) {
			t.Fatalf("capture run %d: output lacks %q:\n%s", i, r.WantInErr, out)
		}
		if strings.Contains(string(out), "DATA RACE") {
			t.Fatalf("capture run %d: the race detector reported a race:\n%s", i, out)
		}
	}
	if spec.Test != "" {
		if out, code := runCaptureEnv(t, mod, checkpointCaptureEnv, "test", "-observe", observe, "-logs", logs, spec.Test); code != 0 {
			t.Fatalf("capture test: exit %d\n%s", code, out)
		}
	}
	var logFiles []string
	filepath.WalkDir(logs, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".arrow") {
			logFiles = append(logFiles, p)
		}
		return nil
	})
	if len(logFiles) == 0 {
		t.Fatal("no logs captured")
	}
	if len(spec.Secrets) > 0 {
		checkNoSecrets(t, logFiles, spec.Secrets)
	}

	// (b) replay against the unchanged code
	harness := filepath.Join(work, "harness")
	baseCheck := spec.Check
	if baseCheck == "" {
		baseCheck = "strict"
	}
	out, code := runCaptureEnv(t, mod, buildEnv, append([]string{"replay", "-observe", observe, "-check", baseCheck, "-harness", harness}, logFiles...)...)
	if code != 0 || strings.Count(out, "PASS ") != len(logFiles) {
		t.Fatalf("replay of the unchanged code: exit %d\n%s", code, out)
	}
	// (b') segments cut at checkpoints, each replayed alone (checkpoint_test.go)
	segs := checkSegments(t, work, harness, logFiles, baseCheck)
	if spec.RepeatReplay > 0 {
		// Logs of runs that died (want_exit) end early, with notes saying
		// so: the repeats are for complete logs.
		var complete []string
		for _, l := range logFiles {
			if i := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(l), "run"), ".arrow"); len(i) == 1 && int(i[0]-'0') < len(spec.Runs) && spec.Runs[i[0]-'0'].WantExit != 0 {
				continue
			}
			complete = append(complete, l)
		}
		repeatReplay(t, harness, complete, baseCheck, spec.RepeatReplay)
	}

	// (d) hermetic: empty environment, and no network where possible
	for _, log := range logFiles {
		report := filepath.Join(work, "hermetic.json")
		env := []string{probe.EnvReplayLog + "=" + log, probe.EnvReplayReport + "=" + report, probe.EnvReplayCheck + "=" + baseCheck}
		cmd := exec.Command(harness)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("harness with an empty environment: %v\n%s", err, out)
		}
		if unshare, err := exec.LookPath("unshare"); err == nil {
			cmd := exec.Command(unshare, "-n", "-r", harness)
			cmd.Env = env
			if out, err := cmd.CombinedOutput(); err != nil {
				if strings.Contains(string(out), "unshare failed") || strings.Contains(string(out), "Operation not permitted") {
					t.Logf("unshare -n not permitted here: %s", out)
				} else {
					t.Fatalf("harness without network: %v\n%s", err, out)
				}
			}
		}
	}

	// (c) mutants
	for _, m := range spec.Mutants {
		t.Run("mutant_"+m.Name, func(t *testing.T) {
			mdir := filepath.Join(work, "mutant-"+m.Name)
			copyDir(t, src, mdir)
			file := filepath.Join(mdir, m.File)
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), m.Old) {
				t.Fatalf("%s does not contain %q", m.File, m.Old)
			}
			if err := os.WriteFile(file, []byte(strings.Replace(string(b), m.Old, m.New, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			check := m.Check
			if check == "" {
				check = "strict"
			}
			var logsFor []string
			for _, l := range logFiles {
				if strings.Contains(l, m.Expect.Log) {
					logsFor = append(logsFor, l)
				}
			}
			reports := filepath.Join(work, "reports-"+m.Name)
			// Without -race: a mutant tests what replay reports, and race
			// builds cost minutes over the whole corpus.
			out, code := runCapture(t, mdir, append(append([]string{"replay", "-observe", observe, "-check", check, "-reports", reports}, logsFor...), segmentsOf(segs, logsFor)...)...)
			if m.WantPass {
				if code != 0 {
					t.Fatalf("want pass at check %s, got exit %d\n%s", check, code, out)
				}
				return
			}
			if code != 1 || !strings.Contains(out, "DIVERGED") {
				t.Fatalf("want a divergence, got exit %d\n%s", code, out)
			}
			found := false
			for _, l := range logsFor {
				b, err := os.ReadFile(filepath.Join(reports, filepath.Base(l)+".json"))
				if err != nil {
					continue
				}
				var r probe.Report
				if err := json.Unmarshal(b, &r); err != nil {
					t.Fatal(err)
				}
				d := r.Divergence
				if d == nil {
					continue
				}
				found = true
				if m.Expect.Kind != "" && !strings.HasPrefix(d.Expected, m.Expect.Kind+" ") {
					t.Errorf("%s: expected event %q, want kind %s\n%s", filepath.Base(l), d.Expected, m.Expect.Kind, out)
				}
				if m.Expect.Site != "" && !strings.Contains(d.Expected, " "+m.Expect.Site+"(") {
					t.Errorf("%s: expected event %q, want site %s\n%s", filepath.Base(l), d.Expected, m.Expect.Site, out)
				}
				if m.Expect.Reason != "" && !strings.Contains(d.Reason, m.Expect.Reason) {
					t.Errorf("%s: reason %q, want %q", filepath.Base(l), d.Reason, m.Expect.Reason)
				}
				if m.Expect.Pos != "" && !strings.Contains(d.Pos, m.Expect.Pos) {
					t.Errorf("%s: position %q, want %q", filepath.Base(l), d.Pos, m.Expect.Pos)
				}
				if d.Seq == 0 && m.Expect.Kind != "" {
					t.Errorf("%s: divergence without a sequence number: %+v", filepath.Base(l), d)
				}
			}
			if !found {
				t.Fatalf("no divergence report\n%s", out)
			}
			checkMutantSegments(t, reports, segs, logsFor)
		})
	}
}

// repeatReplay replays each log n times with the harness and requires
// every replay to pass, race-detector clean, with the same sequence of
// events released by the player (CAPTURE_REPLAY_TRACE), and that sequence
// to be the log's recorded order.
func repeatReplay(t *testing.T, harness string, logs []string, check string, n int) {
	dir := t.TempDir()
	for _, log := range logs {
		var first []byte
		start := time.Now()
		for i := 0; i < n; i++ {
			report, trace := filepath.Join(dir, "report.json"), filepath.Join(dir, "trace.txt")
			cmd := exec.Command(harness)
			// GORACE: no second of sleep at exit per replay (Replay has
			// waited for its goroutines already).
			cmd.Env = []string{"GORACE=atexit_sleep_ms=0", probe.EnvReplayLog + "=" + log, probe.EnvReplayReport + "=" + report,
				probe.EnvReplayCheck + "=" + check, probe.EnvReplayTrace + "=" + trace}
			out, err := cmd.CombinedOutput()
			if err != nil || strings.Contains(string(out), "DATA RACE") {
				t.Fatalf("replay %d of %s: %v\n%s", i, filepath.Base(log), err, out)
			}
			b, err := os.ReadFile(report)
			if err != nil {
				t.Fatal(err)
			}
			var r probe.Report
			if err := json.Unmarshal(b, &r); err != nil {
				t.Fatal(err)
			}
			// The one note allowed: a goroutine was inside an outcall or
			// an incall when the process ended (waitgroup: the last
			// fan.Work's deferred wg.Done woke main, which returned before
			// the worker recorded Done's return, or Work's), which every
			// event of the log still replays.
			notes := 0
			for _, n := range r.Notes {
				if !strings.Contains(n, "were inside an outcall when the capture ended") && !strings.Contains(n, "were inside an incall when the capture ended") {
					notes++
				}
			}
			if r.Verdict != "pass" || notes != 0 || r.Replayed != r.Events {
				t.Fatalf("replay %d of %s: verdict %s, %d of %d events, notes %q", i, filepath.Base(log), r.Verdict, r.Replayed, r.Events, r.Notes)
			}
			seq, err := os.ReadFile(trace)
			if err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				first = seq
				checkRecordedOrder(t, log, seq, r.Events)
				continue
			}
			if !bytes.Equal(seq, first) {
				t.Fatalf("replay %d of %s released the events in another order than replay 0:\n%s", i, filepath.Base(log), firstDifference(first, seq))
			}
		}
		t.Logf("%s: %d replays, identical event sequences, %v in all", filepath.Base(log), n, time.Since(start).Round(time.Millisecond))
	}
}

// checkRecordedOrder: the trace lists every event of the log once, by
// increasing sequence number (the recorded global order), and events of
// several streams.
func checkRecordedOrder(t *testing.T, log string, trace []byte, events int) {
	lines := strings.Split(strings.TrimSpace(string(trace)), "\n")
	if len(lines) != events {
		t.Fatalf("%s: trace has %d events, the log %d", filepath.Base(log), len(lines), events)
	}
	streams := map[string]bool{}
	last := -1
	for _, l := range lines {
		f := strings.Fields(l)
		seq, err := strconv.Atoi(f[0])
		if err != nil || seq <= last {
			t.Fatalf("%s: event %q released after seq %d", filepath.Base(log), l, last)
		}
		last = seq
		streams[f[1]] = true
	}
	t.Logf("%s: %d events of %d streams released in the recorded order", filepath.Base(log), events, len(streams))
}

func firstDifference(a, b []byte) string {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return fmt.Sprintf("event %d: %q, then %q", i, la[i], lb[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(la), len(lb))
}

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// checkNoSecrets fails if a secret appears in the raw bytes of a log or
// in the rendering of its events, and if no value of a log was redacted.
func checkNoSecrets(t *testing.T, logs []string, secrets []string) {
	for _, l := range logs {
		raw, err := os.ReadFile(l)
		if err != nil {
			t.Fatal(err)
		}
		rendered, errs, code := runCmd(t, inspectCmd, "-json", l)
		if code != 0 {
			t.Fatalf("inspect %s: exit %d: %s", filepath.Base(l), code, errs)
		}
		for _, s := range secrets {
			if bytes.Contains(raw, []byte(s)) {
				t.Errorf("%s: the log's bytes hold the secret %q", filepath.Base(l), s)
			}
			if strings.Contains(rendered, s) {
				t.Errorf("%s: the log's events hold the secret %q", filepath.Base(l), s)
			}
		}
		if !strings.Contains(rendered, "redacted(") {
			t.Errorf("%s: no redacted value in the log", filepath.Base(l))
		}
		t.Logf("%s: %d bytes, none of %d secrets, %d redacted values", filepath.Base(l), len(raw), len(secrets), strings.Count(rendered, "redacted("))
	}
}
