package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTestFileInitBeforeInitFunc: an in-package test file's variable
// initialisers call observed code during initialisation (recorded as
// incalls, replayed after initialisation: corpus flagvalues, as pflag's tests
// do), and an init function of the observed package makes an outcall after
// them. Replay cannot perform those incalls before the package's init
// functions have run (its incalls are registered by the last of them): the
// replay must say so, naming the cause, instead of a confusing divergence.
func TestTestFileInitBeforeInitFunc(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with the go command")
	}
	mod := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/ti\n\ngo 1.26\n",
		"reg/reg.go": `package reg

import (
	"os"
	"sort"
	"strings"
)

var registry = map[string]int{}

var separator string

func init() { separator = os.Getenv("REG_SEPARATOR") + "," }

// Define registers name.
func Define(name string, v int) int { registry[name] = v; return v }

// Names lists the registered names.
func Names() string {
	var names []string
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, separator)
}
`,
		"reg/reg_test.go": `package reg

import "testing"

var testLimit = Define("limit", 3)

func TestNames(t *testing.T) {
	if got := Names(); got != "limit" || testLimit != 3 {
		t.Fatalf("Names = %q", got)
	}
}
`,
	}
	writeModule(t, mod, files)
	logs := filepath.Join(t.TempDir(), "logs")
	if out, code := runCapture(t, mod, "test", "-observe", "example.com/ti/reg", "-logs", logs, "./reg"); code != 0 {
		t.Fatalf("capture test: exit %d\n%s", code, out)
	}
	log := filepath.Join(logs, "example.com_ti_reg", "TestNames.arrow")
	out, code := runCapture(t, mod, "replay", "-observe", "example.com/ti/reg", log)
	if code == 0 {
		t.Fatalf("replay passed; want the divergence naming the test file's initialiser:\n%s", out)
	}
	for _, want := range []string{"DIVERGED", "CALL_IN example.com/ti/reg.Define(\"limit\", 3)", "variable initialiser called observed code during initialisation", "make the call in the test, or in TestMain", "os.Getenv"} {
		if !strings.Contains(out, want) {
			t.Errorf("replay output lacks %q:\n%s", want, out)
		}
	}
}

// writeModule writes files (paths relative to mod, slash-separated) into
// the module directory mod.
func writeModule(t *testing.T, mod string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		p := filepath.Join(mod, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
