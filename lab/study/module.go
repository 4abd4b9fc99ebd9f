package study

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// A Subject is one module of the corpus.
type Subject struct {
	Name     string   `json:"name"`              // short name for reports, e.g. "semver"
	Module   string   `json:"module"`            // module path
	Version  string   `json:"version,omitempty"` // fetched through the Go module proxy
	LocalDir string   `json:"-"`                 // instead of Version: a module on disk (copied, never edited)
	Patterns []string `json:"patterns"`          // packages whose tests are run, default ./...
	Observe  []string `json:"observe,omitempty"` // candidate observed packages (default: every non-main package Patterns matches)
}

// Corpus is the study's default corpus: go-cmp with all its
// packages, semver and this repository's examples, then three popular
// modules whose tests need no network, for more round trips on code
// nobody here wrote (toml has several packages, so random sets too).
func Corpus(root string) []Subject {
	return []Subject{
		{Name: "go-cmp", Module: "github.com/google/go-cmp", Version: "v0.7.0"},
		{Name: "semver", Module: "github.com/Masterminds/semver/v3", Version: "v3.4.0"},
		{Name: "examples", Module: "github.com/rules-capture/rules_capture", LocalDir: root, Patterns: []string{"./examples/..."}},
		{Name: "toml", Module: "github.com/BurntSushi/toml", Version: "v1.6.0"},
		{Name: "pflag", Module: "github.com/spf13/pflag", Version: "v1.0.10"},
		{Name: "uuid", Module: "github.com/google/uuid", Version: "v1.6.0"},
	}
}

// CorpusSubject returns the corpus subject called name.
func CorpusSubject(root, name string) (Subject, bool) {
	for _, s := range Corpus(root) {
		if s.Name == name {
			return s, true
		}
	}
	return Subject{}, false
}

// ParseSubject parses "module@version" (fetched from the proxy) or a
// directory holding a go.mod.
func ParseSubject(arg string) (Subject, error) {
	if mod, ver, ok := strings.Cut(arg, "@"); ok {
		if mod == "" || ver == "" {
			return Subject{}, fmt.Errorf("module %q: want module@version, e.g. github.com/Masterminds/semver/v3@v3.4.0", arg)
		}
		return Subject{Name: shortName(mod), Module: mod, Version: ver}, nil
	}
	abs, err := filepath.Abs(arg)
	if err != nil {
		return Subject{}, err
	}
	path, err := modulePath(filepath.Join(abs, "go.mod"))
	if err != nil {
		return Subject{}, fmt.Errorf("%s: want module@version or a directory with a go.mod: %v", arg, err)
	}
	return Subject{Name: shortName(path), Module: path, LocalDir: abs}, nil
}

func shortName(mod string) string {
	parts := strings.Split(mod, "/")
	n := parts[len(parts)-1]
	if len(parts) > 1 && len(n) >= 2 && n[0] == 'v' && strings.Trim(n[1:], "0123456789") == "" {
		n = parts[len(parts)-2]
	}
	return n
}

func modulePath(goMod string) (string, error) {
	b, err := os.ReadFile(goMod)
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`), nil
		}
	}
	return "", fmt.Errorf("%s: no module line", goMod)
}

// prepare puts a writable copy of the subject's module at dst and
// downloads its dependencies, so its tests build.
func (r *runner) prepare(sub Subject, dst string) error {
	src := sub.LocalDir
	if src == "" {
		out, err := r.command(r.cfg.Work, nil, "go", "mod", "download", "-json", sub.Module+"@"+sub.Version).output()
		var info struct{ Dir, Error string }
		if jerr := json.Unmarshal(out, &info); jerr != nil || (err != nil && info.Error == "") {
			return fmt.Errorf("fetching %s@%s through the Go module proxy: %v", sub.Module, sub.Version, errors.Join(err, jerr))
		}
		if info.Error != "" || info.Dir == "" {
			return fmt.Errorf("fetching %s@%s: %s", sub.Module, sub.Version, info.Error)
		}
		src = info.Dir
	}
	if err := copyTree(src, dst); err != nil {
		return fmt.Errorf("copying %s: %v", src, err)
	}
	if err := r.initModule(sub, dst); err != nil {
		return err
	}
	if _, err := r.command(dst, nil, "go", "mod", "download").output(); err != nil {
		return fmt.Errorf("downloading the dependencies of %s: %v", sub.Module, err)
	}
	if err := r.completeGoSum(dst, sub.Patterns); err != nil {
		return fmt.Errorf("completing the go.sum of %s: %v", sub.Module, err)
	}
	return nil
}

// noGoModLanguage is the language version the go command assumes for a
// module without a go.mod ("go 1.16" in cmd/go's gover.DefaultGoModVersion):
// what such a module means when another module depends on it.
const noGoModLanguage = "1.16"

// initModule gives a module published without a go.mod (a +incompatible
// version from before modules) the go.mod a user adopting it would write:
// `go mod init` with its path, and `go mod tidy` for its requirements. The
// go line is the one the go command assumes for such a module, not the
// toolchain's own version that `go mod init` writes: a newer go line would
// change the module's semantics (per-iteration loop variables) and what
// vet checks in its tests (printf's non-constant format strings), so the
// study would test another program than the one users build.
func (r *runner) initModule(sub Subject, dir string) error {
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); !os.IsNotExist(err) {
		return nil
	}
	if _, err := r.command(dir, nil, "go", "mod", "init", sub.Module).output(); err != nil {
		return fmt.Errorf("%s has no go.mod, and go mod init failed: %v", sub.Module, err)
	}
	if _, err := r.command(dir, nil, "go", "mod", "edit", "-go="+noGoModLanguage).output(); err != nil {
		return fmt.Errorf("%s has no go.mod, and setting its go line to %s failed: %v", sub.Module, noGoModLanguage, err)
	}
	if _, err := r.command(dir, nil, "go", "mod", "tidy", "-e").output(); err != nil {
		return fmt.Errorf("%s has no go.mod, and go mod tidy failed: %v", sub.Module, err)
	}
	return nil
}

// completeGoSum adds to the copy's go.sum the checksums of every module
// that the packages patterns match and their tests import: `go mod
// download` without arguments records only the go.mod checksums of what
// go.mod requires, and a published module's go.sum often lacks a
// test-only dependency's, so its tests would not build ("missing go.sum
// entry"). `go list -mod=mod -deps -test` downloads exactly those modules
// and records their sums; the module's go.mod (its go line and
// requirements) is put back as it was, so the study tests the module as
// published. A vendored module needs no go.sum to build and is left alone.
func (r *runner) completeGoSum(dir string, patterns []string) error {
	if _, err := os.Stat(filepath.Join(dir, "vendor", "modules.txt")); err == nil {
		return nil
	}
	goMod := filepath.Join(dir, "go.mod")
	orig, err := os.ReadFile(goMod)
	if err != nil {
		return err
	}
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	// -e: a package that cannot be loaded for another reason is reported
	// where the study builds it, with the go command's own message.
	_, err = r.command(dir, nil, "go", append([]string{"list", "-mod=mod", "-e", "-deps", "-test", "-f", "{{.ImportPath}}"}, patterns...)...).output()
	if now, rerr := os.ReadFile(goMod); rerr == nil && !bytes.Equal(now, orig) {
		if werr := os.WriteFile(goMod, orig, 0o644); werr != nil {
			return werr
		}
	}
	return err
}

// copyTree copies the regular files of src to dst (writable), skipping
// version control, Bazel's convenience links and captured logs: the study
// works on a copy so mutants never touch the original.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && rel != "." && (name == ".git" || name == "node_modules" || name == "capture-logs" || strings.HasPrefix(name, "bazel-")) {
			return filepath.SkipDir
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type().IsRegular():
			return copyFile(path, target)
		}
		return nil // symlinks (bazel-out etc.) and special files
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// listedPackage is what the study needs of `go list`.
type listedPackage struct {
	ImportPath   string
	Name         string
	Dir          string
	GoFiles      []string
	TestGoFiles  []string
	XTestGoFiles []string
}

func (p listedPackage) hasTests() bool { return len(p.TestGoFiles)+len(p.XTestGoFiles) > 0 }

// listPackages lists the packages patterns match in the module at dir.
func (r *runner) listPackages(dir string, patterns []string) ([]listedPackage, error) {
	out, err := r.command(dir, nil, "go", append([]string{"list", "-json"}, patterns...)...).output()
	if err != nil {
		return nil, err
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p listedPackage
		if err := dec.Decode(&p); err != nil {
			return nil, fmt.Errorf("go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].ImportPath < pkgs[j].ImportPath })
	return pkgs, nil
}
