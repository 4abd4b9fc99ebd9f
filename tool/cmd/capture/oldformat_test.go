package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

// TestFormat9LogsReplay: logs of format 9, written by a build from before
// format 10's records (testdata/format9/logs, captured by the capture tool
// built from 1a5a8bb), replay as their own build replayed them. Today's
// player would otherwise read what those logs do not hold: the post-call
// pointee of memory a reflected argument brought in (`&x.When` handed to
// UnmarshalText) and of reflect.New's memory ("corrupt encoded value ...
// cannot decode bytes into a time.Time" at the RETURN_OUT), and it would
// write the code's multi-error by value where the log holds its message.
func TestFormat9LogsReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with the go command")
	}
	work := t.TempDir()
	mod := filepath.Join(work, "module")
	copyDir(t, filepath.Join("testdata", "format9"), mod)
	logs := filepath.Join(mod, "logs")
	entries, err := os.ReadDir(logs)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		r, err := eventlog.Open(filepath.Join(logs, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if v := r.Meta().FormatVersion; v != 9 {
			t.Fatalf("%s: format %d, want 9", e.Name(), v)
		}
		r.Close()
	}
	out, code := runCapture(t, mod, "replay", "-observe", "example.com/format9/codec", logs)
	if code != 0 {
		t.Fatalf("replay of format 9 logs: exit %d\n%s", code, out)
	}
	for _, l := range []string{"TestDecodeSame", "TestParseZero", "TestRequired"} {
		if !strings.Contains(out, "PASS     "+filepath.Join(logs, l+".arrow")) {
			t.Errorf("%s does not replay:\n%s", l, out)
		}
	}
}

// TestFormat11LogsReplay: a log of format 11 (testdata/format11/logs,
// captured by the capture tool built from 0fbae9d) holds New's result, a
// *Cache embedding an unexported *cache, with its exported fields only.
// Today's player writes the replayed result's embedded pointer after them
// ("different results" at New's RETURN_IN) unless it reads the log's
// version (value.LastUntiedEmbedFormat).
func TestFormat11LogsReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with the go command")
	}
	work := t.TempDir()
	mod := filepath.Join(work, "module")
	copyDir(t, filepath.Join("testdata", "format11"), mod)
	logs := filepath.Join(mod, "logs")
	log := filepath.Join(logs, "TestSetGet.arrow")
	r, err := eventlog.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	if v := r.Meta().FormatVersion; v != 11 {
		t.Fatalf("%s: format %d, want 11", log, v)
	}
	r.Close()
	out, code := runCapture(t, mod, "replay", "-observe", "example.com/format11/cache", logs)
	if code != 0 || !strings.Contains(out, "PASS     "+log) {
		t.Fatalf("replay of a format 11 log: exit %d\n%s", code, out)
	}
}
