package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// logFolder makes a folder of logs as a capture run leaves them, with what
// a folder may hold besides: two good logs in subfolders, a file named
// .arrow that is no log, a named pipe named .arrow (opening it would block
// until a writer comes), and a file of another name.
func logFolder(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, sub := range []string{"a", "b"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	copyFile(t, writeEventLog(t, 2, false), filepath.Join(dir, "a", "one.arrow"))
	copyFile(t, writeEventLog(t, 3, false), filepath.Join(dir, "b", "two.arrow"))
	if err := os.WriteFile(filepath.Join(dir, "bad.arrow"), []byte("not an arrow stream"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "README.txt"), []byte("logs of run 7"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.arrow"), 0o644); err != nil {
		t.Skipf("cannot make a named pipe here: %v", err)
	}
	return dir
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestExpandLogs(t *testing.T) {
	dir := logFolder(t)
	empty := t.TempDir()
	if err := os.WriteFile(filepath.Join(empty, "x.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	links := t.TempDir()
	if err := os.Symlink(filepath.Join(dir, "a", "one.arrow"), filepath.Join(links, "linked.arrow")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "pipe.arrow"), filepath.Join(links, "pipe-link.arrow")); err != nil {
		t.Fatal(err)
	}
	plain := writeEventLog(t, 1, false) // named .arrows: a file given by name needs no .arrow
	type want struct {
		path string // relative to the folder of the case
		err  string // substring; "" for a log to read
	}
	for _, tc := range []struct {
		name string
		base string
		args []string
		want []want
	}{
		{"folder", dir, []string{dir}, []want{
			{"a/one.arrow", ""}, {"b/two.arrow", ""}, {"bad.arrow", ""}, // bad.arrow is read, and fails, later
			{"pipe.arrow", "a named pipe (FIFO), not a log file: refused"},
		}},
		{"pipe given by name", dir, []string{filepath.Join(dir, "pipe.arrow")}, []want{{"pipe.arrow", "named pipe"}}},
		{"missing", dir, []string{filepath.Join(dir, "gone.arrow")}, []want{{"gone.arrow", "no such file"}}},
		{"folder without logs", empty, []string{empty}, []want{{"", "folder holds no *.arrow logs"}}},
		{"links", links, []string{links}, []want{{"linked.arrow", ""}, {"pipe-link.arrow", "named pipe"}}},
		{"file of any name, then a folder", "", []string{plain, filepath.Join(dir, "b")}, []want{{plain, ""}, {filepath.Join(dir, "b", "two.arrow"), ""}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := expandLogs(tc.args)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d logs, want %d: %+v", len(got), len(tc.want), got)
			}
			for i, w := range tc.want {
				path := filepath.Join(tc.base, w.path)
				if tc.base == "" {
					path = w.path
				}
				if got[i].path != path {
					t.Errorf("log %d: %s, want %s", i, got[i].path, path)
				}
				switch {
				case w.err == "" && got[i].err != nil:
					t.Errorf("log %d (%s): %v", i, got[i].path, got[i].err)
				case w.err != "" && (got[i].err == nil || !strings.Contains(got[i].err.Error(), w.err)):
					t.Errorf("log %d (%s): error %v, want one saying %q", i, got[i].path, got[i].err, w.err)
				}
			}
		})
	}
}

// within fails the test if run takes more than 20 seconds: a command that
// opened the named pipe would wait for a writer for ever.
func within(t *testing.T, run func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		run()
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the command did not return: it blocked on the named pipe?")
	}
}

// TestLogCommandsTakeFolders: stats and inspect given a folder read every
// log below it, report the one that is no log and refuse the named pipe
// without opening it, and end with a summary and exit status 1.
func TestLogCommandsTakeFolders(t *testing.T) {
	dir := logFolder(t)
	for _, tc := range []struct {
		name string
		run  func([]string, *bytes.Buffer, *bytes.Buffer) int
		args []string
		out  []string // in stdout
	}{
		{"stats", statsCmd, nil, []string{"events      8 (seq 1..8)", "events      12 (seq 1..12)"}},
		{"inspect", inspectCmd, []string{"-kind", "RETURN_IN"}, []string{"# " + filepath.Join(dir, "a", "one.arrow"), "# " + filepath.Join(dir, "b", "two.arrow")}},
		{"inspect json", inspectCmd, []string{"-json", "-kind", "CALL_IN", "-limit", "1"}, []string{`"log":"` + filepath.Join(dir, "a", "one.arrow") + `"`, `"log":"` + filepath.Join(dir, "b", "two.arrow") + `"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errs string
			var code int
			within(t, func() { out, errs, code = runCmd(t, tc.run, append(tc.args, dir)...) })
			if code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			for _, w := range tc.out {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			for _, w := range []string{filepath.Join(dir, "bad.arrow"), "pipe.arrow: a named pipe (FIFO), not a log file: refused", "2 of 4 logs failed: "} {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errs)
				}
			}
		})
	}
	// One good log: no summary, exit 0, as before.
	out, errs, code := runCmd(t, statsCmd, filepath.Join(dir, "a"))
	if code != 0 || errs != "" || !strings.Contains(out, "events      8") {
		t.Errorf("stats of a folder of one good log: exit %d, %s\n%s", code, errs, out)
	}
	if _, _, code := runCmd(t, inspectCmd, "-json", filepath.Join(dir, "a")); code != 0 {
		t.Errorf("inspect of a folder of one good log: exit %d", code)
	}
	// One log, JSON without the log's name (as before folders).
	out, _, _ = runCmd(t, inspectCmd, "-json", "-limit", "1", filepath.Join(dir, "a", "one.arrow"))
	var ev map[string]any
	if err := json.Unmarshal([]byte(out), &ev); err != nil || ev["log"] != nil {
		t.Errorf("inspect -json of one log: %v %s", err, out)
	}
}

// TestReplayChecksLogsFirst: capture replay reports, before it builds
// anything, the logs it cannot replay: a named pipe (refused without
// opening it), a file that is no log, and logs captured with another
// observed set than -observe names, each with a line of its own, and a
// summary; with none left it builds no harness.
func TestReplayChecksLogsFirst(t *testing.T) {
	dir := logFolder(t)
	var out bytes.Buffer
	var code int
	within(t, func() { code = runReplay([]string{"-observe", "example.com/other,example.com/shop", dir}, &out) })
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	text := out.String()
	for _, w := range []string{
		"log one.arrow was captured with observed set [example.com/shop], -observe says [example.com/other example.com/shop]: replay with -observe example.com/shop, or re-capture",
		"log two.arrow was captured with observed set [example.com/shop]",
		"ERROR    " + filepath.Join(dir, "bad.arrow") + ": ",
		"ERROR    " + filepath.Join(dir, "pipe.arrow") + ": a named pipe (FIFO), not a log file: refused",
		"capture replay: 4 of 4 logs failed: ",
		"one.arrow (observed set differs)", "bad.arrow (unreadable)", "pipe.arrow (not read)",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("output lacks %q:\n%s", w, text)
		}
	}
	if strings.Contains(text, "PASS") || strings.Contains(text, "DIVERGED") {
		t.Errorf("replayed a log:\n%s", text)
	}
}
