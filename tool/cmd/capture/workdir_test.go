package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestBazelRunWorkingDirectory: under `bazel run @rules_capture//tool/cmd/capture`
// relative paths are the user's, not the runfiles tree's.
func TestBazelRunWorkingDirectory(t *testing.T) {
	orig, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(orig) // restored at the end
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("BUILD_WORKING_DIRECTORY", dir)
	if err := chdirToUser(); err != nil {
		t.Fatal(err)
	}
	if wd, _ := os.Getwd(); wd != dir {
		t.Errorf("working directory %s, want %s", wd, dir)
	}
	t.Setenv("BUILD_WORKING_DIRECTORY", filepath.Join(dir, "missing"))
	if err := chdirToUser(); err == nil {
		t.Error("a missing BUILD_WORKING_DIRECTORY gave no error")
	}
}
