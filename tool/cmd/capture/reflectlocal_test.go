package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReflectedTypesReplayCannotName: observed code reflects natively over
// its callers' values, and replay must hand it each value with its own
// type. testdata/reflectlocal's tests give codec.Fields values of a type of
// the observed package (rebuilt: the log replays, and a mutant diverges at
// the RETURN_IN), of a type declared in a _test.go file, of a type declared
// inside a test function, and of a type of a package the replay build does
// not contain. The last three cannot be rebuilt: replay must not report a
// divergence of the unchanged code (a stand-in under native reflection
// walks another value) but end those logs with its own outcome, an error
// whose note names the type and where it is declared.
func TestReflectedTypesReplayCannotName(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with the go command")
	}
	work := t.TempDir()
	mod := filepath.Join(work, "module")
	copyDir(t, filepath.Join("testdata", "reflectlocal"), mod)
	logs := filepath.Join(work, "logs")
	const observe = "example.com/reflectlocal/codec"
	if out, code := runCapture(t, mod, "test", "-observe", observe, "-logs", logs, "./..."); code != 0 {
		t.Fatalf("capture test: exit %d\n%s", code, out)
	}
	log := func(pkg, test string) string {
		return filepath.Join(logs, "example.com_reflectlocal_"+pkg, test+".arrow")
	}
	out, code := runCapture(t, mod, "replay", "-observe", observe, logs)
	if code != 1 || strings.Contains(out, "DIVERGED") {
		t.Fatalf("replay of the unchanged code: want exit 1 and no divergence, got exit %d\n%s", code, out)
	}
	if !strings.Contains(out, "PASS     "+log("codec", "TestOwn")) {
		t.Errorf("the value of the observed package's own type does not replay:\n%s", out)
	}
	for _, want := range []struct{ log, note string }{
		{log("codec", "TestLocal"), "reflected value of type *example.com/reflectlocal/codec.local cannot be rebuilt in replay (example.com/reflectlocal/codec.local is declared inside a function (codec_test.go:25)), an argument of example.com/reflectlocal/codec.Fields at seq 1"},
		{log("codec", "TestFileLevel"), "reflected value of type example.com/reflectlocal/codec.fileLevel cannot be rebuilt in replay (example.com/reflectlocal/codec.fileLevel is declared in a _test.go file (codec_test.go:7), which replay does not link)"},
		{log("caller", "TestProfile"), "reflected value of type example.com/reflectlocal/caller.Profile cannot be rebuilt in replay (example.com/reflectlocal/caller.Profile is declared in a package the replay build does not contain"},
	} {
		if !strings.Contains(out, "ERROR    "+want.log+": ["+want.note) {
			t.Errorf("replay of %s: want an error noting %q, got\n%s", filepath.Base(want.log), want.note, out)
		}
	}

	// A mutant of the field walk: the log that replays catches it at the
	// incall's RETURN_IN.
	file := filepath.Join(mod, "codec", "codec.go")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	const old = "strconv.FormatInt(fv.Int(), 10)"
	if !strings.Contains(string(b), old) {
		t.Fatalf("codec.go lacks %q", old)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(b), old, "strconv.FormatInt(fv.Int()+1, 10)", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = runCapture(t, mod, "replay", "-observe", observe, log("codec", "TestOwn"))
	if code != 1 || !strings.Contains(out, "DIVERGED") || !strings.Contains(out, "different results") || !strings.Contains(out, "RETURN_IN example.com/reflectlocal/codec.Fields") {
		t.Fatalf("mutant: want a divergence at Fields' RETURN_IN, got exit %d\n%s", code, out)
	}
}
