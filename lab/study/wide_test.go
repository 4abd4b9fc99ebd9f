package study

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

func TestWideCorpusIsBroadPinnedAndUniquelyNamed(t *testing.T) {
	c := WideCorpus()
	if len(c) < 30 {
		t.Errorf("%d modules, want at least 30", len(c))
	}
	names, mods := map[string]bool{}, map[string]bool{}
	for _, s := range c {
		if s.Version == "" || s.LocalDir != "" {
			t.Errorf("%s: want a module pinned to a proxy version, got %+v", s.Module, s)
		}
		if names[s.Name] || mods[s.Module] {
			t.Errorf("%s (%s) twice: results are kept per name", s.Name, s.Module)
		}
		names[s.Name], mods[s.Module] = true, true
	}
	for _, want := range []string{"github.com/yuin/goldmark@v1.8.7", "github.com/expr-lang/expr@v1.17.8"} {
		found := false
		for _, s := range c {
			found = found || s.Module+"@"+s.Version == want
		}
		if !found {
			t.Errorf("the wide corpus lacks %s", want)
		}
	}
}

func TestChunksCoverEverySubjectOnceInEvenParts(t *testing.T) {
	var subs []Subject
	for i := 0; i < 38; i++ {
		subs = append(subs, Subject{Name: string(rune('a' + i))})
	}
	for n := 1; n <= 12; n++ {
		var all []Subject
		lo, hi := len(subs), 0
		for k := 1; k <= n; k++ {
			c := Chunk(subs, k, n)
			lo, hi = min(lo, len(c)), max(hi, len(c))
			all = append(all, c...)
		}
		if !reflect.DeepEqual(all, subs) {
			t.Errorf("n=%d: the chunks together are not the subjects in order", n)
		}
		if hi-lo > 1 {
			t.Errorf("n=%d: chunk sizes %d..%d, want even", n, lo, hi)
		}
	}
	if k, n, err := ParseChunk("2/8"); err != nil || k != 2 || n != 8 {
		t.Errorf("ParseChunk(2/8) = %d, %d, %v", k, n, err)
	}
	for _, bad := range []string{"", "3", "0/2", "3/2", "a/b", "1/0"} {
		if _, _, err := ParseChunk(bad); err == nil {
			t.Errorf("ParseChunk(%q) accepted", bad)
		}
	}
}

// fixCommit makes the studies of a test record commit, as a capture built
// from a clean checkout at it would.
func fixCommit(t *testing.T, commit string) {
	was := studyCommit
	studyCommit = func() string { return commit }
	t.Cleanup(func() { studyCommit = was })
}

// TestRunEachResumes: a module with a finished result is skipped, one
// with an unfinished or no result is studied (here it cannot be prepared,
// which is a result too), -force studies again, and scratch is removed.
func TestRunEachResumes(t *testing.T) {
	fixCommit(t, "0123456789ab")
	results, work := t.TempDir(), t.TempDir()
	done := Subject{Name: "done", Module: "example.com/done", Version: "v1.0.0"}
	half := Subject{Name: "half", Module: "example.com/half", LocalDir: filepath.Join(t.TempDir(), "absent")}
	fresh := Subject{Name: "fresh", Module: "example.com/fresh", LocalDir: filepath.Join(t.TempDir(), "absent")}
	cfg := Config{Capture: "/nonexistent/capture", Root: t.TempDir(), Work: work}
	write := func(sub Subject, finished bool) {
		rep := cfg.defaults().header(time.Now())
		rep.Finished = finished
		rep.Subjects = []*SubjectResult{{Subject: sub, Sets: []*SetResult{{Observed: []string{sub.Module}, Kind: "package", Logs: 3, Passed: 3}}}}
		if err := rep.Write(filepath.Join(results, sub.Name)); err != nil {
			t.Fatal(err)
		}
	}
	write(done, true)
	write(half, false)
	studied, err := RunEach(cfg, []Subject{done, half, fresh}, results, false)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(studied, []string{"half", "fresh"}) {
		t.Errorf("studied %v, want half and fresh (done has a finished result)", studied)
	}
	for _, sub := range []Subject{half, fresh} {
		rep, err := ReadReport(resultFile(results, sub))
		if err != nil || !rep.Finished || len(rep.Subjects) != 1 || !strings.Contains(rep.Subjects[0].Error, "copying") {
			t.Errorf("%s: %v %+v", sub.Name, err, rep)
		}
		if _, err := os.Stat(filepath.Join(work, sub.Name)); !os.IsNotExist(err) {
			t.Errorf("%s: scratch left behind (%v)", sub.Name, err)
		}
	}
	if rep, _ := ReadReport(resultFile(results, done)); rep == nil || rep.Subjects[0].Error != "" {
		t.Errorf("done was studied again: %+v", rep)
	}
	// A result for another version of the module is not this study's.
	newer := done
	newer.Version, newer.LocalDir = "v2.0.0", filepath.Join(t.TempDir(), "absent")
	if studied, _ := RunEach(cfg, []Subject{newer}, results, false); len(studied) != 1 {
		t.Errorf("a result for another version was taken for this one")
	}
	write(done, true)
	redo := done
	redo.LocalDir = filepath.Join(t.TempDir(), "absent")
	if studied, _ := RunEach(cfg, []Subject{redo}, results, true); !reflect.DeepEqual(studied, []string{"done"}) {
		t.Errorf("-force studied %v, want done again", studied)
	}
	// An unfinished study with other flags is neither continued nor
	// overwritten, unless -force.
	write(half, false)
	other := cfg
	other.Mutants = 2
	studied, err = RunEach(other, []Subject{half}, results, false)
	if len(studied) != 0 || err == nil || !strings.Contains(err.Error(), "-mutants 0, now 2") || !strings.Contains(err.Error(), "-force") {
		t.Errorf("other flags: studied %v, error %v; want a refusal naming -mutants", studied, err)
	}
	if rep, _ := ReadReport(resultFile(results, half)); rep == nil || rep.Finished || rep.Subjects[0].Sets[0].Logs != 3 {
		t.Errorf("the refused study was changed: %+v", rep)
	}
	if studied, err := RunEach(other, []Subject{half}, results, true); err != nil || !reflect.DeepEqual(studied, []string{"half"}) {
		t.Errorf("-force over an unfinished study: studied %v, %v", studied, err)
	}
}

// TestResumableNeedsTheSameCaptureAndFlags: an unfinished study is
// continued only by a run with the same commit (a clean one), the same Go
// and the same flags; the refusal names what differs.
func TestResumableNeedsTheSameCaptureAndFlags(t *testing.T) {
	fixCommit(t, "0123456789ab")
	base := Config{Capture: "c", Root: "r", Work: "w", Mutants: 2, MaxPackages: 0, Timeout: 10 * time.Minute, TestLimit: time.Minute}
	prev := base.defaults().header(time.Now())
	for _, c := range []struct {
		name string
		cfg  func(*Config) // the flags of the run that would continue it
		rep  func(*Report) // and the rest of its report
		want string        // "" for resumable
	}{
		{"same", nil, nil, ""},
		{"another start time", nil, func(now *Report) { now.Started = "2030-01-01T00:00:00Z" }, ""},
		{"verbose and another work directory", func(cfg *Config) { cfg.Verbose, cfg.Work = true, "w2" }, nil, ""},
		{"another commit", nil, func(now *Report) { now.Commit = "fedcba987654" }, "commit 0123456789ab, this is fedcba987654"},
		{"a modified tree", nil, func(now *Report) { now.Commit += "+modified" }, "uncommitted changes"},
		{"no commit", nil, func(now *Report) { now.Commit = "" }, "built without its commit"},
		{"another Go", nil, func(now *Report) { now.GoVersion = "go1.99" }, "this is go1.99"},
		{"seed", func(cfg *Config) { cfg.Seed = 2 }, nil, "-seed 0, now 2"},
		{"mutants", func(cfg *Config) { cfg.Mutants = 0 }, nil, "-mutants 2, now 0"},
		{"repeats", func(cfg *Config) { cfg.Repeats = 5 }, nil, "-repeats 0, now 5"},
		{"random sets", func(cfg *Config) { cfg.Sets = 5 }, nil, "-sets 0, now 5"},
		{"max packages", func(cfg *Config) { cfg.MaxPackages = 6 }, nil, "-max-packages 0, now 6"},
		{"packages", func(cfg *Config) { cfg.Packages = []string{"a/b"} }, nil, "-packages none, now a/b"},
		{"only sets", func(cfg *Config) { cfg.OnlySets = []int{3} }, nil, "-only-sets none, now 3"},
		{"timeout", func(cfg *Config) { cfg.Timeout = 30 * time.Minute }, nil, "-timeout 10m0s, now 30m0s"},
		{"test limit", func(cfg *Config) { cfg.TestLimit = 2 * time.Minute }, nil, "-test-limit 1m0s, now 2m0s"},
		{"test limit factor", func(cfg *Config) { cfg.TestLimitFactor = 5 }, nil, "-test-limit-factor 20, now 5"},
		{"log cap", func(cfg *Config) { cfg.MaxLogBytes = "0" }, nil, "-max-log-bytes (or $CAPTURE_MAX_BYTES) 256MiB, now 0"},
		{"two flags", func(cfg *Config) { cfg.Seed, cfg.Mutants = 4, 5 }, nil, "-seed 0, now 4; -mutants 2, now 5"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := base
			if c.cfg != nil {
				c.cfg(&cfg)
			}
			now := cfg.defaults().header(time.Now())
			if c.rep != nil {
				c.rep(now)
			}
			err := resumable(prev, now)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("got %v, want a refusal naming %q", err, c.want)
			}
		})
	}
	old := *prev
	old.Selection = nil
	if err := resumable(&old, prev); err == nil || !strings.Contains(err.Error(), "records no -sets") {
		t.Errorf("a study from before the flags were recorded: %v", err)
	}
}

// TestRunEachContinuesAnUnfinishedStudy studies the mini module's two
// packages over two runs: the second keeps the set the first finished
// (its result as it was) and studies only the other.
func TestRunEachContinuesAnUnfinishedStudy(t *testing.T) {
	bin, root := captureCommand(t)
	fixCommit(t, "0123456789ab")
	sub, err := ParseSubject("testdata/mini")
	if err != nil {
		t.Fatal(err)
	}
	results := t.TempDir()
	var progress strings.Builder
	cfg := Config{Capture: bin, Root: root, Work: t.TempDir(), Seed: 3, Log: &progress}
	// What a run stopped after its first set leaves: calc studied (with
	// numbers no study of mini gives, to tell it was kept), not finished.
	first := cfg.defaults().header(time.Now().Add(-time.Hour))
	first.Seconds = 3600
	calc := &SetResult{Observed: []string{"example.com/mini/calc"}, Kind: "package", Tests: 70, Logs: 70, Passed: 69, Errors: 1}
	res := &SubjectResult{Subject: sub, Sets: []*SetResult{calc}, Seconds: 3600}
	res.Subject.Patterns = []string{"./..."}
	res.Totals.add(calc)
	first.Subjects = []*SubjectResult{res}
	if err := first.Write(filepath.Join(results, sub.Name)); err != nil {
		t.Fatal(err)
	}
	studied, err := RunEach(cfg, []Subject{sub}, results, false)
	t.Log(progress.String())
	if err != nil || !reflect.DeepEqual(studied, []string{sub.Name}) {
		t.Fatalf("studied %v, %v", studied, err)
	}
	rep, err := ReadReport(resultFile(results, sub))
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Finished || rep.Started != first.Started || rep.Seconds < 3600 || len(rep.Subjects) != 1 {
		t.Fatalf("report: finished %v, started %s (want %s), %v s", rep.Finished, rep.Started, first.Started, rep.Seconds)
	}
	got := rep.Subjects[0]
	if len(got.Sets) != 2 || !reflect.DeepEqual(got.Sets[0], calc) || !reflect.DeepEqual(got.Sets[1].Observed, []string{"example.com/mini/report"}) {
		t.Fatalf("sets: %+v", got.Sets)
	}
	if r := got.Sets[1]; r.Logs == 0 || r.Passed != r.Logs {
		t.Errorf("the report set: %d logs, %d passed: %+v", r.Logs, r.Passed, r.Failures)
	}
	if got.Totals.Logs != 70+got.Sets[1].Logs || rep.Totals.Passed != 69+got.Sets[1].Passed || rep.Totals.Sets != 2 {
		t.Errorf("totals do not cover both runs' sets: %+v / %+v", got.Totals, rep.Totals)
	}
	if strings.Count(progress.String(), "observed set ") != 1 || !strings.Contains(progress.String(), "1 of its 2 observed sets are done") {
		t.Errorf("progress: want only the second set studied:\n%s", progress.String())
	}
}

func TestTableMergesPerModuleResults(t *testing.T) {
	dir := t.TempDir()
	a := Subject{Name: "a", Module: "example.com/a", Version: "v1.0.0"}
	b := Subject{Name: "b", Module: "example.com/b", Version: "v0.2.0"}
	c := Subject{Name: "c", Module: "example.com/c", Version: "v3.0.0"}
	missing := Subject{Name: "d", Module: "example.com/d", Version: "v1.1.0"}
	div := replayOutcome{Log: "example.com/a.TestX", Verdict: "error", Error: "replay can only start a logical goroutine at an incall"}
	setsA := []*SetResult{
		{Observed: []string{"example.com/a"}, Kind: "package", Logs: 10, Passed: 7, Diverged: 1, Errors: 2, Capped: []string{"example.com/a.TestBig"},
			Failures: []replayOutcome{div, div}, TimedOut: []TimedOutTest{{Test: "example.com/a.TestSlow", Limit: 60}},
			Mutation: &Mutation{Kept: 3, ByReplay: 2, ByTests: 2, Both: 1, Neither: 0, Mutants: []MutantOutcome{
				{ByReplay: true, ByTests: true, FailedTests: []string{"example.com/a.TestX", "example.com/a.TestY"}},
				{ByReplay: true},
				{ByTests: true, FailedTests: []string{"example.com/a.TestX", "example.com/a.TestSlow"}},
			}}},
		{Observed: []string{"example.com/a/sub"}, Kind: "package", Rejected: []string{"sub/x.go:3:4: reflect.Value.Interface (reflect.ValueOf at sub/y.go:9) is not supported in an observed package: observe less"}},
		{Observed: []string{"example.com/a/sub2"}, Kind: "package", Rejected: []string{"sub2/z.go:5:1: reflect.Value.Interface (reflect.ValueOf at sub2/w.go:12) is not supported in an observed package: observe less"}},
	}
	setsB := []*SetResult{{Observed: []string{"example.com/b"}, Kind: "package", Logs: 4, Passed: 4, Error: "capture test exited with 1:\n/tmp/w/b/module/b.go:600: n.baseLink undefined"}}
	for _, r := range []struct {
		sub      Subject
		sets     []*SetResult
		err      string
		finished bool
	}{{a, setsA, "", true}, {b, setsB, "", false}, {c, nil, "fetching example.com/c@v3.0.0: not found", true}} {
		res := &SubjectResult{Subject: r.sub, Sets: r.sets, Error: r.err}
		for _, s := range r.sets {
			res.Totals.add(s)
		}
		rep := &Report{Finished: r.finished, Commit: "abc123" + r.sub.Name, Subjects: []*SubjectResult{res}}
		if err := rep.Write(filepath.Join(dir, r.sub.Name)); err != nil {
			t.Fatal(err)
		}
	}
	var out strings.Builder
	if err := Table(&out, dir, []Subject{b, a, c, missing}); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		// The corpus's order; one row per module with its totals.
		"| example.com/b (unfinished) | v0.2.0 | abc123b | 1 | 0 | **1** | 4 | 4 | 0 | 0 | 0 | 0 | 0 | 0 | 0 |\n| example.com/a | v1.0.0 | abc123a | 3 | 2 | 0 | 10 | 7 | **1** | **2** | 1 | 1 | 3 | 2 | 2 |",
		"| example.com/c | v3.0.0 | abc123c | not studied: fetching example.com/c@v3.0.0: not found |",
		"| **all 2** | | | 4 | 2 | **1** | 14 | 11 | **1** | **2** | 1 | 1 | 3 | 2 | 2 |",
		"Mutants, each judged both ways (by replaying the set's logs that passed on the unchanged code, and by the module's tests that passed without capture): 3; caught by replay 2 (67%), by the tests 2 (67%); by both 1, by replay only 1, by the tests only 1, by neither 0.",
		// TestX's round trip failed (div) and TestSlow timed out: the
		// third mutant is caught by the tests only through tests with
		// no log to replay it from.
		"Where both apply, the tests counting only through a test whose log is among those replayed (a test whose round trip diverged, failed, was capped, timed out or was rejected has no log to replay the mutant from): caught by replay 2, by the tests 1.",
		"Observed sets accepted: 50%",
		"Not yet studied (or unfinished): example.com/b@v0.2.0, example.com/d@v1.1.0.",
		"| 2 | error: replay can only start a logical goroutine at an incall | a |",
		"| 2 | rejected: reflect.Value.Interface (reflect.ValueOf at …) is not supported in an observed package: observe less | a |",
		"| 1 | tool error: capture test exited with 1: …: n.baseLink undefined | b |",
		"| 1 | test ran past its limit under capture | a |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
}

// TestUnrebuiltTypesAreOneCausePerReason: replay's refusals of reflected
// values of types it cannot make count by the reason, not by the type and
// call; other reasons stay as they are.
func TestUnrebuiltTypesAreOneCausePerReason(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"error: reflected value of type github.com/BurntSushi/toml.simple cannot be rebuilt in replay (github.com/BurntSushi/toml.simple is declared inside a function (decode_test.go:1, encode_test.go:2)), an argument of (*github.com/BurntSushi/toml.Encoder).Encode at seq 12 (stream 1): observed code would reflect natively over a stand-in, so the log is not replayed (docs/design/reflection.md)",
			"error: reflected value of a type replay cannot rebuild: declared inside a function (docs/design/reflection.md)"},
		{"error: reflected value of type github.com/BurntSushi/toml.Outer cannot be rebuilt in replay (github.com/BurntSushi/toml.Outer is declared inside a function (a.go:1) or in a _test.go file (b_test.go:2), which replay does not link), an argument of github.com/BurntSushi/toml.Decode at seq 8 (stream 1): observed code would reflect natively over a stand-in, so the log is not replayed (docs/design/reflection.md)",
			"error: reflected value of a type replay cannot rebuild: declared inside a function (docs/design/reflection.md)"},
		{"error: reflected value of type *struct { A int } cannot be rebuilt in replay (a type literal without a name (struct, func or chan), which replay does not make), an argument of github.com/BurntSushi/toml.DecodeFS at seq 8 (stream 1): observed code would reflect natively over a stand-in, so the log is not replayed (docs/design/reflection.md)",
			"error: reflected value of a type replay cannot rebuild: a type literal without a name (docs/design/reflection.md)"},
		{"error: reflected value of type testing.T cannot be rebuilt in replay (testing.T is declared in a package the replay build does not contain, inside a function, or in a _test.go file), an argument of github.com/spf13/cast.ToBool at seq 3 (stream 2): observed code would reflect natively over a stand-in, so the log is not replayed (docs/design/reflection.md)",
			"error: reflected value of a type replay cannot rebuild: declared in a package the replay build does not contain (docs/design/reflection.md)"},
		{"different results (expected RETURN_IN; at …)", "different results (expected RETURN_IN; at …)"},
	} {
		if got := unrebuiltKind(c.in); got != c.want {
			t.Errorf("unrebuiltKind(%.60q…) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestCommitOfBuildSettings: the commit a study records is the revision
// the go command stamped into the binary, shortened, marked when the tree
// had uncommitted changes, and empty when there is none.
func TestCommitOfBuildSettings(t *testing.T) {
	rev := "606effe0123456789abcdef0123456789abcdef0"
	for _, c := range []struct {
		settings []debug.BuildSetting
		want     string
	}{
		{[]debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "false"}}, "606effe01234"},
		{[]debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "true"}}, "606effe01234+modified"},
		{[]debug.BuildSetting{{Key: "vcs.revision", Value: "606effe"}}, "606effe"},
		{[]debug.BuildSetting{{Key: "GOARCH", Value: "amd64"}, {Key: "vcs.modified", Value: "true"}}, ""},
	} {
		if got := commitOf(c.settings); got != c.want {
			t.Errorf("commitOf(%v) = %q, want %q", c.settings, got, c.want)
		}
	}
}

// TestSetScratchDroppedOnceRecorded: with dropSetScratch (RunEach), an
// observed set's scratch (logs, test binaries, harness) is removed once
// its result is recorded, and the module's copy stays for the next set.
func TestSetScratchDroppedOnceRecorded(t *testing.T) {
	bin, root := captureCommand(t)
	sub, err := ParseSubject("testdata/mini")
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	for _, drop := range []bool{false, true} {
		cfg := Config{Capture: bin, Root: root, Work: work, Packages: []string{"example.com/mini/calc"}, dropSetScratch: drop}
		rep, err := Run(cfg, []Subject{sub})
		if err != nil {
			t.Fatal(err)
		}
		if s := rep.Subjects[0]; len(s.Sets) != 1 || s.Sets[0].Logs == 0 {
			t.Fatalf("drop %v: %+v", drop, s)
		}
		_, err = os.Stat(filepath.Join(work, sub.Name, "set000"))
		if kept := err == nil; kept == drop {
			t.Errorf("drop %v: the set's scratch is there: %v", drop, kept)
		}
		if _, err := os.Stat(filepath.Join(work, sub.Name, "module", "go.mod")); err != nil {
			t.Errorf("drop %v: the module's copy is gone: %v", drop, err)
		}
	}
}
