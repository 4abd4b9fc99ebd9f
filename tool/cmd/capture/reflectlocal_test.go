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
// the observed package, of a type declared in a _test.go file, inside a
// test function, of a struct type literal (with an unexported field, which
// reflect.StructOf cannot make), of two alike types of one name declared in
// two test functions, of two of one name with other fields (named in the
// log with the fingerprint of their structure), of unnamed func and chan
// types, of testing.T, and of a type and a struct literal of the external
// test package, which imports an internal package of codec: the replay
// harness links the observed package's test files (the external test
// package as a module of its own at its import path, codec_test, with a
// copy of the internal package), so each is rebuilt as its own type and
// the log replays (a mutant of the field walk diverges at the RETURN_IN of
// one of them). pair's test calls the observed generic Same with a type of
// its own package, which the observed package does not import: the harness
// adds the module's package to the build and the call replays; so does
// Same with an exported type of codec's own test file, and caller's
// Profile, a type of a package no log's site names (the harness links the
// module's packages whose types the logs name). What the replay build
// still cannot rebuild — hooked's Profile: hooked's initialisation calls
// the codec, so linking it would call observed code again and the harness
// leaves it out — must not be a divergence of the unchanged code (a
// stand-in under native reflection walks another value) but end that log
// with replay's own outcome, an error whose note names the type.
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
	for _, l := range []string{log("codec", "TestOwn"), log("codec", "TestFileLevel"), log("codec", "TestLocal"),
		log("codec", "TestLiteral"), log("codec", "TestTwinA"), log("codec", "TestTwinB"), log("codec", "TestTesting"),
		log("codec", "TestExternal"), log("codec", "TestExternalLiteral"), log("codec", "TestShapeA"), log("codec", "TestShapeB"),
		log("codec", "TestFuncAndChan"), log("codec", "TestSameTestType"), log("pair", "TestSame"), log("caller", "TestProfile")} {
		if !strings.Contains(out, "PASS     "+l) {
			t.Errorf("%s does not replay:\n%s", filepath.Base(l), out)
		}
	}
	for _, want := range []struct{ log, note string }{
		{log("hooked", "TestHooked"), "reflected value of type example.com/reflectlocal/hooked.Profile cannot be rebuilt in replay (example.com/reflectlocal/hooked.Profile is declared in a package the replay build does not contain"},
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
	for _, l := range []string{log("codec", "TestOwn"), log("codec", "TestLocal"), log("codec", "TestShapeA")} {
		out, code = runCapture(t, mod, "replay", "-observe", observe, l)
		if code != 1 || !strings.Contains(out, "DIVERGED") || !strings.Contains(out, "different results") || !strings.Contains(out, "RETURN_IN example.com/reflectlocal/codec.Fields") {
			t.Fatalf("mutant, %s: want a divergence at Fields' RETURN_IN, got exit %d\n%s", filepath.Base(l), code, out)
		}
	}
}
