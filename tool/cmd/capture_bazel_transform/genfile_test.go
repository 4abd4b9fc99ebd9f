package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedFileFlag: the generated file is written under the name the
// rule declared (-generated_file), and only a .go base name is taken.
func TestGeneratedFileFlag(t *testing.T) {
	dir, exports, stdlib := setupModule(t)
	out := t.TempDir()
	args := append(baseArgs(dir, stdlib, out), "-generated_file", "declared_gen.go",
		"-arc", "example.com/m/dep=example.com/m/dep="+exports["example.com/m/dep"],
		filepath.Join(dir, "lib/lib.go"))
	if err := run(args); err != nil {
		t.Fatal(err)
	}
	if gen, err := os.ReadFile(filepath.Join(out, "declared_gen.go")); err != nil || !strings.Contains(string(gen), "package lib") {
		t.Errorf("declared_gen.go: %v\n%s", err, gen)
	}
	if _, err := os.Stat(filepath.Join(out, "zz_capture_gen.go")); err == nil {
		t.Error("the generated file was also written under the default name")
	}
	for _, bad := range []string{"", "sub/gen.go", "gen.txt"} {
		args := append(baseArgs(dir, stdlib, out), "-generated_file", bad, filepath.Join(dir, "lib/lib.go"))
		if _, err := parseArgs(args); err == nil || !strings.Contains(err.Error(), "-generated_file") {
			t.Errorf("-generated_file %q: %v", bad, err)
		}
	}
}
