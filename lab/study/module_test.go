package study

import (
	"archive/zip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeFiles writes files (path relative to dir: content).
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// fileProxy makes a GOPROXY=file:// directory serving module mod at
// version ver with files (path in the module: content).
func fileProxy(t *testing.T, mod, ver string, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	at := filepath.Join(root, filepath.FromSlash(mod), "@v")
	writeFiles(t, at, map[string]string{
		"list":        ver + "\n",
		ver + ".info": `{"Version":"` + ver + `"}`,
		ver + ".mod":  files["go.mod"],
	})
	f, err := os.Create(filepath.Join(at, ver+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	z := zip.NewWriter(f)
	for name, content := range files {
		w, err := z.Create(mod + "@" + ver + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(content)); err != nil {
			t.Fatal(err)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestPrepareCompletesGoSumForTestDependencies: a module whose go.sum
// lacks the checksums of a module only its tests import (go.mod requires
// it, as published modules often do) is prepared so that its tests build
// and run in the baseline; the copy's go.mod and the original module are
// left as they were. Hermetic: the dependency comes from a file:// proxy
// made here, into a module cache of its own.
func TestPrepareCompletesGoSumForTestDependencies(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	proxy := fileProxy(t, "example.com/dep", "v1.0.0", map[string]string{
		"go.mod": "module example.com/dep\n\ngo 1.21\n",
		"dep.go": "package dep\n\nfunc Two() int { return 2 }\n",
	})
	t.Setenv("GOPROXY", "file://"+filepath.ToSlash(proxy))
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GONOSUMDB", "")
	t.Setenv("GOPRIVATE", "")
	t.Setenv("GOTOOLCHAIN", "local")
	t.Setenv("GOMODCACHE", t.TempDir())
	t.Setenv("GOFLAGS", "-modcacherw") // so that TempDir can remove the cache

	goMod := "module example.com/m\n\ngo 1.21\n\nrequire example.com/dep v1.0.0\n"
	src := t.TempDir()
	writeFiles(t, src, map[string]string{
		"go.mod":    goMod,
		"go.sum":    "",
		"m.go":      "package m\n\nfunc One() int { return 1 }\n",
		"m_test.go": "package m\n\nimport (\n\t\"testing\"\n\n\t\"example.com/dep\"\n)\n\nfunc TestOne(t *testing.T) {\n\tif One()+1 != dep.Two() {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n",
	})
	sub, err := ParseSubject(src)
	if err != nil {
		t.Fatal(err)
	}
	sub.Patterns = []string{"./..."}
	work := t.TempDir()
	r := &runner{cfg: Config{Work: work, Timeout: 2 * time.Minute}}
	dst := filepath.Join(work, "module")
	if err := r.prepare(sub, dst); err != nil {
		t.Fatalf("prepare: %v", err)
	}
	m := &moduleRun{r: r, sub: sub, dir: dst, base: work}
	if err := m.baseline(); err != nil {
		t.Fatalf("baseline after prepare: %v", err)
	}
	if len(m.testPkgs) != 1 || len(m.testPkgs[0].tests) != 1 || !m.testPkgs[0].tests[0].plainPassed {
		t.Errorf("baseline: want TestOne passing, got %+v", m.testPkgs)
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "go.mod")); string(b) != goMod {
		t.Errorf("the copy's go.mod changed:\n%s", b)
	}
	if b, _ := os.ReadFile(filepath.Join(src, "go.sum")); len(b) != 0 {
		t.Errorf("the original module's go.sum changed:\n%s", b)
	}
}

// TestPrepareGivesAModuleWithoutGoModOne: a module published before
// modules (a +incompatible version, no go.mod) is prepared with the go.mod
// `go mod init` writes, so that its tests build, at the language version
// the go command assumes for such a module (go 1.16): its test relies on
// a loop variable shared by all iterations and on vet not checking a
// non-constant format string, both of which a go line of 1.22 or later
// (the toolchain's own, which `go mod init` writes) would change.
func TestPrepareGivesAModuleWithoutGoModOne(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	src := t.TempDir()
	writeFiles(t, src, map[string]string{
		"old.go": "package old\n\nfunc One() int { return 1 }\n",
		"old_test.go": `package old

import (
	"fmt"
	"testing"
)

func TestOne(t *testing.T) {
	var fs []func() int
	for i := 0; i < One()+1; i++ {
		fs = append(fs, func() int { return i })
	}
	if fs[0]() != 2 {
		t.Fatal("each iteration has its own loop variable: the module's language version changed")
	}
	format := "one is %d"
	if fmt.Sprintf(format, One()) != fmt.Sprintf("one is %d", 1) {
		t.Fatal("wrong")
	}
	t.Log(fmt.Sprintf(format[:3]))
}
`,
	})
	sub := Subject{Name: "old", Module: "example.com/old", LocalDir: src, Patterns: []string{"./..."}}
	work := t.TempDir()
	r := &runner{cfg: Config{Work: work, Timeout: 2 * time.Minute}}
	dst := filepath.Join(work, "module")
	if err := r.prepare(sub, dst); err != nil {
		t.Fatalf("prepare: %v", err)
	}
	if path, err := modulePath(filepath.Join(dst, "go.mod")); err != nil || path != "example.com/old" {
		t.Errorf("the copy's go.mod: %q, %v", path, err)
	}
	if b, err := os.ReadFile(filepath.Join(dst, "go.mod")); err != nil || !strings.Contains(string(b), "\ngo 1.16\n") {
		t.Errorf("the copy's go.mod should say go 1.16 (%v):\n%s", err, b)
	}
	if _, err := os.Stat(filepath.Join(src, "go.mod")); !os.IsNotExist(err) {
		t.Errorf("the original module got a go.mod (%v)", err)
	}
	m := &moduleRun{r: r, sub: sub, dir: dst, base: work}
	if err := m.baseline(); err != nil {
		t.Fatalf("baseline after prepare: %v", err)
	}
	if len(m.testPkgs) != 1 || len(m.testPkgs[0].tests) != 1 || !m.testPkgs[0].tests[0].plainPassed {
		t.Errorf("baseline: want TestOne passing, got %+v", m.testPkgs)
	}
}
