package probectl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestMain makes this test binary a stand-in replay harness: run by Run
// (CAPTURE_REPLAY_LOG set) it does what the log's base name asks instead of
// running the tests.
func TestMain(m *testing.M) {
	if log := os.Getenv(EnvReplayLog); log != "" {
		os.Exit(fakeHarness(log))
	}
	os.Exit(m.Run())
}

// fakeHarness plays a replay child. Every mode first checks that the
// environment holds only the replay's settings and that the child runs in
// the log's folder: a report with verdict "error" says what was wrong.
func fakeHarness(log string) int {
	report := os.Getenv(EnvReplayReport)
	write := func(r Report) {
		r.Log, r.Check = log, os.Getenv(EnvReplayCheck)
		b, _ := json.Marshal(r)
		os.WriteFile(report, b, 0o644)
	}
	var wrong []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !slices.Contains([]string{EnvReplayLog, EnvReplayCheck, EnvReplayReport, EnvReplayStall}, k) {
			wrong = append(wrong, "unexpected "+kv)
		}
	}
	if wd, err := os.Getwd(); err != nil || wd != filepath.Dir(log) {
		wrong = append(wrong, fmt.Sprintf("working directory %s (%v), want %s", wd, err, filepath.Dir(log)))
	}
	if len(wrong) > 0 {
		write(Report{Verdict: Error, Notes: wrong})
		return 3
	}
	switch strings.TrimSuffix(filepath.Base(log), ".arrow") {
	case "pass":
		write(Report{Verdict: Pass, Events: 4, Replayed: 4, Notes: []string{"stall=" + os.Getenv(EnvReplayStall)}})
		return 0
	case "diverge":
		fmt.Fprintln(os.Stderr, "divergence at seq 2 (stream 0): different arguments")
		write(Report{Verdict: Diverged, Events: 4, Replayed: 1, Divergence: &Divergence{Seq: 2, Reason: "different arguments"}})
		return 1
	case "race":
		write(Report{Verdict: Pass, Events: 4, Replayed: 4})
		fmt.Fprintln(os.Stderr, "WARNING: DATA RACE")
		return 66
	case "crash":
		panic("boom")
	case "silent":
		return 2
	case "hang":
		time.Sleep(time.Minute)
	}
	return 0
}

// Run gives the child only the replay's settings, in the log's folder, and
// turns what the child did into a verdict or an error.
func TestRun(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skipf("no test binary to run as a harness: %v", err)
	}
	dir := t.TempDir()
	t.Setenv("CAPTURE_FROM_THE_PARENT", "must not reach the child")
	child := func(name string) Child {
		return Child{Harness: exe, Log: filepath.Join(dir, name+".arrow"), Report: filepath.Join(dir, name+".json")}
	}
	ctx := context.Background()

	c := child("pass")
	c.Stall = "30s"
	o, err := Run(ctx, c)
	if err != nil || o.Report.Verdict != Pass || o.Report.Check != CheckStrict || !slices.Equal(o.Report.Notes, []string{"stall=30s"}) {
		t.Errorf("pass: %v %+v", err, o.Report)
	}

	c = child("diverge")
	c.Check = CheckReturns
	o, err = Run(ctx, c)
	if err != nil || o.Report.Verdict != Diverged || o.Report.Divergence.Seq != 2 || o.Report.Check != CheckReturns || !strings.Contains(string(o.Output), "divergence at seq 2") {
		t.Errorf("diverge: %v %+v %q", err, o.Report, o.Output)
	}

	o, err = Run(ctx, child("race"))
	if err == nil || !strings.Contains(err.Error(), "the replay passed but the harness failed (exit status 66)") || !strings.Contains(err.Error(), "DATA RACE") {
		t.Errorf("race: %v", err)
	}

	c = child("crash")
	o, err = Run(ctx, c)
	if err != nil || o.Report.Verdict != Diverged || !strings.HasPrefix(o.Report.Divergence.Actual, "panic: boom") {
		t.Fatalf("crash: %v %+v", err, o.Report)
	}
	if r, err := ReadReport(c.Report); err != nil || r.Verdict != Diverged || r.Divergence.Actual != o.Report.Divergence.Actual {
		t.Errorf("crash report as written: %v %+v", err, r)
	}

	c = child("silent")
	if err := os.WriteFile(c.Report, []byte(`{"verdict":"pass"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err = Run(ctx, c); err == nil || !strings.Contains(err.Error(), "the harness wrote no report (exit status 2)") {
		t.Errorf("silent child with a report left from an earlier run: %v", err)
	}

	tctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	o, err = Run(tctx, child("hang"))
	if err == nil || o.RunErr == nil || time.Since(start) > 30*time.Second {
		t.Errorf("hang: %v, child %v after %v", err, o.RunErr, time.Since(start))
	}
}

// The verdict of every way a child can end.
func TestJudge(t *testing.T) {
	c := Child{Log: "/logs/t.arrow", Report: "/reports/t.json", Check: CheckCrash}
	exit := func(code int) error { return fmt.Errorf("exit status %d", code) }
	panicked := []byte("panic: boom\n\ngoroutine 7 [running]:\nmain.f()\n\t/src/f.go:3 +0x1d\n")
	missing := &os.PathError{Op: "open", Path: c.Report, Err: os.ErrNotExist}
	for _, tc := range []struct {
		name    string
		report  string
		readErr error
		runErr  error
		out     []byte
		verdict string // "" when an error is wanted
		err     string
	}{
		{name: "pass", report: `{"verdict":"pass"}`, verdict: Pass},
		{name: "diverged", report: `{"verdict":"diverged","divergence":{"seq":3}}`, runErr: exit(1), verdict: Diverged},
		{name: "pass from a failed child", report: `{"verdict":"pass"}`, runErr: exit(66), out: []byte("WARNING: DATA RACE"), err: "the replay passed but the harness failed (exit status 66):\nWARNING: DATA RACE"},
		{name: "divergence without details", report: `{"verdict":"diverged"}`, runErr: exit(1), err: "divergence without details"},
		{name: "error verdict", report: `{"verdict":"error","notes":["log truncated"]}`, runErr: exit(3), out: []byte("replay: log truncated"), err: "[log truncated]\nreplay: log truncated"},
		{name: "unknown verdict", report: `{"verdict":"maybe"}`, err: `unknown verdict "maybe"`},
		{name: "unreadable report", report: `{"verdict":`, err: "report /reports/t.json: unexpected end of JSON input"},
		{name: "crash", readErr: missing, runErr: exit(2), out: panicked, verdict: Diverged},
		{name: "no report, no crash", readErr: missing, runErr: exit(2), out: []byte("cannot open log"), err: "the harness wrote no report (exit status 2):\ncannot open log"},
		{name: "no report from a child that succeeded", readErr: missing, out: panicked, err: "the harness wrote no report (<nil>)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := judge(c, []byte(tc.report), tc.readErr, tc.runErr, tc.out)
			if tc.verdict != "" {
				if err != nil || r == nil || r.Verdict != tc.verdict {
					t.Fatalf("got %+v, %v; want verdict %s", r, err, tc.verdict)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("got %+v, error %v; want an error with %q", r, err, tc.err)
			}
		})
	}
	r, err := judge(c, nil, os.ErrNotExist, errors.New("exit status 2"), panicked)
	if err != nil || r.Log != c.Log || r.Check != CheckCrash || r.Divergence.Pos != "/src/f.go:3" {
		t.Errorf("crash report %+v, %v", r, err)
	}
}

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int64{"500000": 500000, "64MiB": 64 << 20, "1GB": 1e9, "2K": 2048, "3 kB": 3000} {
		if got, err := ParseBytes(in); err != nil || got != want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "MiB", "0", "12XB", "99999999999T"} {
		if _, err := ParseBytes(in); err == nil {
			t.Errorf("ParseBytes(%q): no error", in)
		}
	}
}

// go_replay_test's check attribute takes the check levels the player
// knows: rules/private/replay.bzl lists them for Starlark as CHECK_LEVELS.
func TestCheckLevelsMatchStarlark(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "rules", "private", "replay.bzl"))
	if errors.Is(err, os.ErrNotExist) {
		t.Skip("rules/private/replay.bzl is not here (Bazel's sandbox): the check runs in go test ./...")
	}
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "\nCHECK_LEVELS = [")
	list, _, ok2 := strings.Cut(rest, "]")
	if !ok || !ok2 {
		t.Fatal("replay.bzl has no CHECK_LEVELS = [...]")
	}
	var levels []string
	for _, f := range strings.Split(list, ",") {
		if f = strings.Trim(strings.TrimSpace(f), `"`); f != "" {
			levels = append(levels, f)
		}
	}
	if !slices.Equal(levels, CheckLevels) {
		t.Errorf("replay.bzl's CHECK_LEVELS = %q, probectl.CheckLevels = %q", levels, CheckLevels)
	}
	for _, l := range CheckLevels {
		if !ValidCheck(l) {
			t.Errorf("ValidCheck(%q) = false", l)
		}
	}
	if ValidCheck("lenient") {
		t.Error(`ValidCheck("lenient") = true`)
	}
}
