package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/probe"
)

// TestLanguageVersions: the instrumented code compiles at the module's own
// language version and keeps the program's semantics there. testdata/lang
// ranges over maps and channels in every form with loop bodies that make
// outcalls; the transform rewrites those loops (a range over a function
// before go1.23 would not compile, nor a generic helper before go1.18).
// At each go line (none: go1.16; go1.18 with the generic code) the program
// prints the same natively, instrumented while capturing (sorted map
// order) and instrumented without capturing (native order), closures and
// pointers made in the loops see one variable before go1.22 and one per
// iteration since, and the capture's log replays.
func TestLanguageVersions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with the go command")
	}
	for _, v := range []string{"", "1.18", "1.21", "1.22", "1.23"} {
		name := "go" + v
		if v == "" {
			name = "nogoline"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			mod := t.TempDir()
			copyTree(t, filepath.Join("testdata", "lang"), mod)
			goMod := "module example.com/lang\n"
			var env []string
			if v != "" {
				goMod += "\ngo " + v + "\n"
				env = append(env, "GOFLAGS=-tags=generics")
			}
			if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte(goMod), 0o644); err != nil {
				t.Fatal(err)
			}
			env = append(env, "LANG_A=a", "LANG_B=bb", "LANG_C=ccc", "LANG_D=dddd")
			run := func(what string, cmd *exec.Cmd, extra ...string) string {
				t.Helper()
				cmd.Dir = mod
				cmd.Env = append(append(os.Environ(), env...), extra...)
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("%s: %v\n%s", what, err, out)
				}
				return string(out)
			}
			want := run("go run without capture", exec.Command("go", "run", "./cmd/lang"))
			shared := "true true"
			if v == "1.22" || v == "1.23" {
				shared = "false false"
			}
			if !strings.Contains(want, "\n"+shared+"\n") {
				t.Fatalf("without capture, the loops' variables are not as go %s makes them (want %q):\n%s", v, shared, want)
			}
			bin := filepath.Join(t.TempDir(), "lang")
			if out, code := runCaptureEnv(t, mod, env, "build", "-observe", "example.com/lang/loops", "-o", bin, "./cmd/lang"); code != 0 {
				t.Fatalf("capture build: exit %d\n%s", code, out)
			}
			log := filepath.Join(t.TempDir(), "run.arrow")
			if got := run("capturing", exec.Command(bin), probe.EnvLog+"="+log, probe.EnvPolicy+"=block"); got != want {
				t.Errorf("capturing, the program prints\n%s\nwithout capture\n%s", got, want)
			}
			if got := run("not capturing", exec.Command(bin)); got != want {
				t.Errorf("instrumented but not capturing, the program prints\n%s\nwithout capture\n%s", got, want)
			}
			out, code := runCaptureEnv(t, mod, env, "replay", "-observe", "example.com/lang/loops", "-check", "strict", "-harness", filepath.Join(t.TempDir(), "harness"), log)
			if code != 0 || !strings.Contains(out, "PASS ") {
				t.Fatalf("replay: exit %d\n%s", code, out)
			}
		})
	}
}
