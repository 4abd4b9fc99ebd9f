// Package harness runs the replay tests that rules_capture's go_replay_test
// generates: one subtest per event log, each log replayed in a child process
// of the test binary (the probe runtime loads the log at start-up, before the
// observed packages initialise, so one process replays one log).
//
// It is Bazel-aware on purpose (the runtime is not): logs are found in the
// test's runfiles, reports go to TEST_UNDECLARED_OUTPUTS_DIR, and the test
// function of a shard checks it runs in that shard.
package harness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/probe"
	"github.com/rules-capture/rules_capture/runtime/probectl"
)

// Config is what go_replay_test knows at build time.
type Config struct {
	Target   string   // Bazel label of the test, for messages
	Check    string   // strict, returns or crash
	Observed []string // import paths of the observed set
	Logs     []string // runfiles paths (<repo>/<path>) of the logs, sorted
}

// Main is the body of the generated TestMain: in a replay child it replays
// the log named by the environment and exits; otherwise it runs the tests.
func Main(m *testing.M) {
	if os.Getenv(probectl.EnvReplayLog) != "" {
		os.Exit(probe.Main())
	}
	os.Exit(m.Run())
}

// Run replays the logs of shard `shard` of `shards` (the generated test
// functions are one per shard; rules_go deals test functions to Bazel shards
// round-robin, so function i runs in shard i).
func Run(t *testing.T, c Config, shard, shards int) {
	if len(c.Logs) == 0 {
		// A new project has captured nothing yet: not a failure, but say
		// where logs go.
		t.Skipf("%s has no event logs to replay: put .arrow logs captured by the capture binary where its logs attribute looks (Gazelle: testdata/capture/)", c.Target)
	}
	if shards > 1 {
		idx, total, ok := bazelShard()
		if ok && (idx != shard || total != shards) {
			t.Fatalf("%s: test function for shard %d/%d ran in Bazel shard %d/%d: rules_go's test sharding changed; set shard_count to 0 on the go_replay_test", c.Target, shard, shards, idx, total)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatalf("cannot find the test binary to replay in a child process: %v", err)
	}
	outDir := os.Getenv("TEST_UNDECLARED_OUTPUTS_DIR")
	if outDir == "" {
		outDir = t.TempDir()
	}
	ran := 0
	for i, log := range c.Logs {
		if shards > 1 && i%shards != shard {
			continue
		}
		ran++
		t.Run(filepath.Base(log), func(t *testing.T) {
			replayOne(t, c, exe, log, outDir)
		})
	}
	if ran == 0 && len(c.Logs) > 0 {
		t.Logf("no log falls in shard %d of %d", shard, shards)
	}
}

func bazelShard() (idx, total int, ok bool) {
	total, err1 := strconv.Atoi(os.Getenv("TEST_TOTAL_SHARDS"))
	idx, err2 := strconv.Atoi(os.Getenv("TEST_SHARD_INDEX"))
	return idx, total, err1 == nil && err2 == nil
}

// Runfile returns the path of a runfile given as <repo>/<path>.
func Runfile(rpath string) (string, error) {
	for _, env := range []string{"RUNFILES_DIR", "TEST_SRCDIR"} {
		if dir := os.Getenv(env); dir != "" {
			p := filepath.Join(dir, filepath.FromSlash(rpath))
			if _, err := os.Stat(p); err == nil {
				return p, nil
			}
		}
	}
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(exe+".runfiles", filepath.FromSlash(rpath))
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("runfile %s not found (neither RUNFILES_DIR nor TEST_SRCDIR holds it): is it in the test's logs?", rpath)
}

func reportName(log string) string {
	return strings.NewReplacer("/", "_", "\\", "_").Replace(strings.TrimSuffix(filepath.Base(log), filepath.Ext(log)))
}

func replayOne(t *testing.T, c Config, exe, log, outDir string) {
	path, err := Runfile(log)
	if err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	o, err := probectl.Run(context.Background(), probectl.Child{
		Harness: exe,
		Args:    []string{"-test.run=^$"},
		Log:     abs,
		Check:   c.Check,
		Report:  filepath.Join(outDir, reportName(log)+".replay.json"),
	})
	if err != nil {
		t.Fatalf("replaying %s: %v", log, err)
	}
	r := o.Report
	switch r.Verdict {
	case probectl.Pass:
		t.Logf("%s: %d of %d events replayed, check=%s", log, r.Replayed, r.Events, r.Check)
		if r.Ended != "" {
			t.Logf("%s: %s", log, r.Ended) // a cut log: what came after its end was not judged
		}
	case probectl.Diverged:
		text := divergenceText(c, log, r, string(o.Output))
		txtPath := filepath.Join(outDir, reportName(log)+".divergence.txt")
		if err := os.WriteFile(txtPath, []byte(text), 0o644); err != nil {
			t.Logf("writing %s: %v", txtPath, err)
		}
		t.Errorf("%s diverged (check=%s); report: %s\n%s", log, c.Check, kept(txtPath), indent(r.Divergence))
	}
}

// kept names where a report written to the test's undeclared outputs can be
// read once the test is over: the sandbox path is gone by then, and Bazel
// keeps the files under bazel-testlogs (zipped in outputs.zip unless
// --nozip_undeclared_test_outputs is given). Outside Bazel it is the path.
func kept(path string) string {
	target := os.Getenv("TEST_TARGET")
	if target == "" {
		return path
	}
	return path + " (kept as " + testlogsPath(target, os.Getenv("TEST_SHARD_INDEX"), os.Getenv("TEST_TOTAL_SHARDS"), filepath.Base(path)) + ")"
}

// testlogsPath is the file's place under bazel-testlogs for the test target
// (a label such as //pkg:name or @repo//pkg:name) and its shard.
func testlogsPath(target, shard, shards, file string) string {
	if i := strings.Index(target, "//"); i >= 0 {
		target = target[i+2:]
	}
	// A target of the root package ("//:replay_tests") has no package
	// folder: its outputs are under bazel-testlogs/replay_tests.
	dir := strings.TrimPrefix(strings.Replace(target, ":", "/", 1), "/")
	if n, err := strconv.Atoi(shards); err == nil && n > 1 {
		if i, err := strconv.Atoi(shard); err == nil {
			dir += fmt.Sprintf("/shard_%d_of_%d", i+1, n)
		}
	}
	return "bazel-testlogs/" + dir + "/test.outputs/" + file + " (in outputs.zip unless --nozip_undeclared_test_outputs)"
}

func indent(d *probectl.Divergence) string {
	if d == nil {
		return "  (no divergence details)"
	}
	return "  " + strings.ReplaceAll(strings.TrimRight(d.String(), "\n"), "\n", "\n  ")
}

func divergenceText(c Config, log string, r *probectl.Report, childOutput string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "replay test: %s\nlog:         %s\ncheck:       %s\nobserved:    %s\nevents:      %d in the log, %d replayed before the divergence\n\n",
		c.Target, log, c.Check, strings.Join(c.Observed, " "), r.Events, r.Replayed)
	if r.Divergence != nil {
		b.WriteString(r.Divergence.String())
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	if childOutput != "" {
		fmt.Fprintf(&b, "\noutput of the replay:\n%s", childOutput)
	}
	return b.String()
}
