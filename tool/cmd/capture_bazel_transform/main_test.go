package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// exportData builds the module in dir with the go command and returns the
// export data file of every package it needs, keyed by import path. The test
// needs the go command (not available in a Bazel sandbox: tag it).
func exportData(t *testing.T, dir string, pkgs ...string) map[string]string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	args := append([]string{"list", "-deps", "-export", "-f", "{{.ImportPath}}={{.Export}}"}, pkgs...)
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	m := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		ip, file, _ := strings.Cut(line, "=")
		if file != "" {
			m[ip] = file
		}
	}
	return m
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// fakeStdlib lays out standard library export data the way rules_go's stdlib
// rule does: ROOT/pkg/GOOS_GOARCH/<path>.a.
func fakeStdlib(t *testing.T, exports map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for ip, file := range exports {
		if strings.Contains(ip, ".") { // not the standard library
			continue
		}
		dst := filepath.Join(root, "pkg", runtime.GOOS+"_"+runtime.GOARCH, ip+".a")
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(file, dst); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

const (
	depSrc = `package dep

type Rate struct{ Percent int }

func Lookup(region string) Rate { return Rate{Percent: len(region)} }
`
	libSrc = `package lib

import (
	"fmt"

	"example.com/m/dep"
)

func Price(region string, cents int) string {
	r := dep.Lookup(region)
	return fmt.Sprint(cents * (100 + r.Percent) / 100)
}
`
	windowsOnly = `//go:build windows

package lib

func undefinedOnLinux() int { return doesNotExist }
`
)

func setupModule(t *testing.T) (dir string, exports map[string]string, stdlib string) {
	dir = t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":             "module example.com/m\n\ngo 1.22\n",
		"dep/dep.go":         depSrc,
		"lib/lib.go":         libSrc,
		"lib/lib_windows.go": windowsOnly,
	})
	exports = exportData(t, dir, "./lib")
	return dir, exports, fakeStdlib(t, exports)
}

func baseArgs(dir, stdlib, out string) []string {
	return []string{
		"-mode", "capture", "-importpath", "example.com/m/lib",
		"-goos", "linux", "-goarch", runtime.GOARCH, "-stdlib", stdlib,
		"-observe", "example.com/m/lib", "-out_dir", out,
	}
}

func TestTransformsTypeCheckedPackage(t *testing.T) {
	dir, exports, stdlib := setupModule(t)
	out := t.TempDir()
	args := append(baseArgs(dir, stdlib, out),
		"-arc", "example.com/m/dep=example.com/m/dep="+exports["example.com/m/dep"],
		filepath.Join(dir, "lib/lib.go"), filepath.Join(dir, "lib/lib_windows.go"))
	if err := run(args); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(out, "lib.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), "Price(") {
		t.Errorf("transformed lib.go lost its code:\n%s", got)
	}
	// Excluded by build constraints: copied byte for byte, never type-checked
	// (it does not compile on linux).
	excluded, err := os.ReadFile(filepath.Join(out, "lib_windows.go"))
	if err != nil {
		t.Fatal(err)
	}
	if string(excluded) != windowsOnly {
		t.Errorf("lib_windows.go changed:\n%s", excluded)
	}
}

func TestMissingDependencyNamesTheFix(t *testing.T) {
	dir, _, stdlib := setupModule(t)
	args := append(baseArgs(dir, stdlib, t.TempDir()), filepath.Join(dir, "lib/lib.go"))
	err := run(args)
	if err == nil || !strings.Contains(err.Error(), `"example.com/m/dep"`) || !strings.Contains(err.Error(), "add it to deps") {
		t.Fatalf("want an error naming example.com/m/dep and the fix, got %v", err)
	}
}

func TestRejectsCgo(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"c.go": "package c\n\nimport \"C\"\n\nfunc F() {}\n"})
	args := []string{"-mode", "replay", "-importpath", "example.com/c", "-goos", "linux", "-goarch", "amd64",
		"-cgo", "-stdlib", dir, "-out_dir", t.TempDir(), filepath.Join(dir, "c.go")}
	err := run(args)
	if err == nil || !strings.Contains(err.Error(), "cgo") {
		t.Fatalf("want a cgo error, got %v", err)
	}
}

func TestBadArguments(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"mode", []string{"-mode", "off", "-importpath", "x", "-stdlib", "s", "-out_dir", "o", "a.go"}, "-mode must be capture or replay"},
		{"arc", []string{"-mode", "capture", "-importpath", "x", "-goos", "linux", "-goarch", "amd64", "-stdlib", "s", "-out_dir", "o", "-arc", "nofile", "a.go"}, "IMPORTPATH=IMPORTMAP=FILE"},
		{"nosrcs", []string{"-mode", "capture", "-importpath", "x", "-stdlib", "s", "-out_dir", "o"}, "no source files"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseArgs(tc.args)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want error containing %q, got %v", tc.want, err)
			}
		})
	}
}

func TestParamsFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "params")
	if err := os.WriteFile(p, []byte("-mode\ncapture\n-importpath\nexample.com/x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := expandParams([]string{"-param=" + p, "a.go"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, " ") != "-mode capture -importpath example.com/x a.go" {
		t.Fatalf("got %q", got)
	}
}

func TestWritesGeneratedFile(t *testing.T) {
	dir, exports, stdlib := setupModule(t)
	out := t.TempDir()
	args := append(baseArgs(dir, stdlib, out),
		"-arc", "example.com/m/dep=example.com/m/dep="+exports["example.com/m/dep"],
		filepath.Join(dir, "lib/lib.go"))
	if err := run(args); err != nil {
		t.Fatal(err)
	}
	gen, err := os.ReadFile(filepath.Join(out, "zz_capture_gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(gen), "package lib") || !strings.Contains(string(gen), "runtime/probe") {
		t.Errorf("generated file does not register the package with the probe API:\n%s", gen)
	}
	lib, _ := os.ReadFile(filepath.Join(out, "lib.go"))
	if !strings.Contains(string(lib), "//line "+filepath.Join(dir, "lib/lib.go")) {
		t.Errorf("instrumented lib.go does not point back at its source with a //line directive:\n%s", lib)
	}
}

func TestExitOnlyClosesTheLogInMain(t *testing.T) {
	dir := t.TempDir()
	mainSrc := "package main\n\nimport \"os\"\n\nfunc main() {\n\tif len(os.Args) > 3 {\n\t\tos.Exit(3)\n\t}\n}\n"
	writeFiles(t, dir, map[string]string{"main.go": mainSrc, "util_windows.go": "package main\n"})
	out := t.TempDir()
	args := []string{"-exit_only", "-mode", "capture", "-goos", "linux", "-goarch", "amd64", "-out_dir", out,
		filepath.Join(dir, "main.go"), filepath.Join(dir, "util_windows.go")}
	if err := run(args); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(out, "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(got)
	for _, want := range []string{"//line " + filepath.Join(dir, "main.go") + ":1\n", "defer capture_probe.Close()", "capture_probe.Exit(3)", "runtime/probe"} {
		if !strings.Contains(s, want) {
			t.Errorf("instrumented main.go lacks %q:\n%s", want, s)
		}
	}
	// Lines are kept: os.Exit stays on line 7 after the //line directive.
	if lines := strings.Split(s, "\n"); len(lines) < 8 || !strings.Contains(lines[7], "Exit(3)") {
		t.Errorf("os.Exit moved off its line:\n%s", s)
	}
	if _, err := os.Stat(filepath.Join(out, "util_windows.go")); err != nil {
		t.Errorf("excluded file not copied: %v", err)
	}
}

// TestSameOutputAsGoNativeFrontEnd: given the files and the dependencies'
// export data on its command line, the Bazel action writes exactly what the
// go-list front end writes for the same package (the transform's golden
// files): the two front ends differ only in how they find their inputs.
func TestSameOutputAsGoNativeFrontEnd(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(filepath.Dir(filepath.Dir(wd)))
	module := filepath.Join(root, "testdata", "corpus", "basic")
	exports := exportData(t, module, "example.com/basic/calc")
	out := t.TempDir()
	args := []string{"-mode", "capture", "-importpath", "example.com/basic/calc",
		"-goos", runtime.GOOS, "-goarch", runtime.GOARCH, "-stdlib", fakeStdlib(t, exports),
		"-observe", "example.com/basic/calc", "-out_dir", out}
	for path, file := range exports {
		if strings.Contains(path, ".") && path != "example.com/basic/calc" {
			args = append(args, "-arc", path+"="+path+"="+file)
		}
	}
	// The sources are named relative to the directory the action runs in,
	// as Bazel's exec root.
	t.Chdir(module)
	if err := run(append(args, "calc/calc.go")); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join(root, "tool", "transform", "testdata", "golden", "basic")
	for name, gold := range map[string]string{"calc.go": "calc.go.golden", "zz_capture_gen.go": "zz_capture_gen.go.golden"} {
		got, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(golden, gold))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s differs from the go-list front end's output (%s)", name, gold)
		}
	}
}

// TestTestSrcWrapsUnexported: the package's in-package test files given
// with -test_src make the unexported functions they call incalls; an
// external test package's files, and test files the build constraints
// exclude, do not.
func TestTestSrcWrapsUnexported(t *testing.T) {
	dir, exports, stdlib := setupModule(t)
	writeFiles(t, dir, map[string]string{
		"lib/round.go":             "package lib\n\nfunc round(c int) int { return c / 10 * 10 }\n\nfunc trim(c int) int { return c }\n\nfunc only(c int) int { return c }\n",
		"lib/round_test.go":        "package lib\n\nimport \"testing\"\n\nfunc TestRound(t *testing.T) { _ = round(15) }\n",
		"lib/x_test.go":            "package lib_test\n\nfunc trim() {}\n",
		"lib/only_windows_test.go": "package lib\n\nvar _ = only(1)\n",
	})
	out := t.TempDir()
	args := append(baseArgs(dir, stdlib, out),
		"-arc", "example.com/m/dep=example.com/m/dep="+exports["example.com/m/dep"],
		"-test_src", filepath.Join(dir, "lib/round_test.go"),
		"-test_src", filepath.Join(dir, "lib/x_test.go"),
		"-test_src", filepath.Join(dir, "lib/only_windows_test.go"),
		filepath.Join(dir, "lib/lib.go"), filepath.Join(dir, "lib/round.go"))
	if err := run(args); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(out, "round.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), "func _capture_round(") {
		t.Errorf("round, which the in-package test calls, is not wrapped:\n%s", got)
	}
	for _, name := range []string{"trim", "only"} {
		if strings.Contains(string(got), "_capture_"+name) {
			t.Errorf("%s is wrapped, but no in-package test file of this build calls it:\n%s", name, got)
		}
	}
}
