package study

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"strings"
	"testing"
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

// TestRunEachResumes: a module with a finished result is skipped, one
// with an unfinished or no result is studied (here it cannot be prepared,
// which is a result too), -force studies again, and scratch is removed.
func TestRunEachResumes(t *testing.T) {
	results, work := t.TempDir(), t.TempDir()
	done := Subject{Name: "done", Module: "example.com/done", Version: "v1.0.0"}
	half := Subject{Name: "half", Module: "example.com/half", LocalDir: filepath.Join(t.TempDir(), "absent")}
	fresh := Subject{Name: "fresh", Module: "example.com/fresh", LocalDir: filepath.Join(t.TempDir(), "absent")}
	write := func(sub Subject, finished bool) {
		rep := &Report{Finished: finished, Subjects: []*SubjectResult{{Subject: sub, Sets: []*SetResult{{Observed: []string{sub.Module}, Kind: "package", Logs: 3, Passed: 3}}}}}
		if err := rep.Write(filepath.Join(results, sub.Name)); err != nil {
			t.Fatal(err)
		}
	}
	write(done, true)
	write(half, false)
	cfg := Config{Capture: "/nonexistent/capture", Root: t.TempDir(), Work: work}
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
