package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// copyTree copies the files under src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestModuleGoLineKept: capture test must not change the semantics of the
// module it tests. testdata/go118 is a module at go 1.18 whose tests pass
// with go test only under its own go line: a for loop with one variable
// for all iterations (in the test and in the observed package), the
// GODEBUG default panicnil=1, and vet's format check, which applies from
// go 1.24. rules_capture's runtime needs a newer Go, so the temporary
// module file's go line is newer; the tests must still pass.
func TestModuleGoLineKept(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with the go command")
	}
	mod := t.TempDir()
	copyTree(t, filepath.Join("testdata", "go118"), mod)
	plain := exec.Command("go", "test", "-count=1", "./...")
	plain.Dir = mod
	if out, err := plain.CombinedOutput(); err != nil {
		t.Fatalf("go test without capture: %v\n%s", err, out)
	}
	logs := filepath.Join(t.TempDir(), "logs")
	out, code := runCapture(t, mod, "test", "-observe", "example.com/go118/loop", "-logs", logs, "./loop")
	if code != 0 {
		t.Fatalf("capture test: exit %d\n%s", code, out)
	}
	for _, test := range []string{"TestSharedLoopVariable", "TestPanicNil", "TestFormat"} {
		if !strings.Contains(out, "ok   example.com/go118/loop."+test) {
			t.Errorf("capture test did not pass %s:\n%s", test, out)
		}
	}
	// The logs replay: the harness, in the module too, builds with its
	// language version.
	log := filepath.Join(logs, "example.com_go118_loop", "TestSharedLoopVariable.arrow")
	if out, code := runCapture(t, mod, "replay", "-observe", "example.com/go118/loop", log); code != 0 {
		t.Fatalf("capture replay: exit %d\n%s", code, out)
	}
	// The module's files are as they were.
	if b, err := os.ReadFile(filepath.Join(mod, "go.mod")); err != nil || string(b) != "module example.com/go118\n\ngo 1.18\n" {
		t.Errorf("go.mod changed: %q, %v", b, err)
	}
}

// TestModuleVetFails: capture test runs the module's own vet, as go test
// does, and a package vet rejects is not run.
func TestModuleVetFails(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with the go command")
	}
	mod := t.TempDir()
	copyTree(t, filepath.Join("testdata", "go118"), mod)
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module example.com/go118\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := runCapture(t, mod, "test", "-observe", "example.com/go118/loop", "-logs", filepath.Join(t.TempDir(), "logs"), "-run", "TestFormat", "./loop")
	if code == 0 || !strings.Contains(out, "non-constant format string") || strings.Contains(out, "ok   ") {
		t.Fatalf("capture test of a module at go 1.24 whose test vet rejects: exit %d; want vet's report and no test run:\n%s", code, out)
	}
}
