// Package frontend drives the plain Go toolchain for the `capture` command:
// it instruments the observed packages of a user's module into a temporary
// overlay (`go build -overlay`) and adds rules_capture's runtime through a
// temporary module file (`-modfile`), so the user's files and go.mod are
// never edited and the module need not require rules_capture.
package frontend

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"

	"github.com/rules-capture/rules_capture/tool/internal/load"
	"github.com/rules-capture/rules_capture/tool/transform"
	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"
)

// Module is rules_capture's module path.
const Module = "github.com/rules-capture/rules_capture"

// EnvRoot names rules_capture's source tree for the front end.
const EnvRoot = "CAPTURE_ROOT"

// Session is one prepared build of a user's module.
type Session struct {
	Dir      string   // the user's module root
	Observed []string // import paths
	Root     string   // rules_capture's source tree
	Work     string   // temporary directory
	ModFile  string
	Overlay  map[string]string
	Env      []string
	Hash     string // hash of the observed packages' sources
	Listed   map[string]*load.ListedPackage
	Verbose  bool
	// TestIncalls holds, per observed package, the unexported functions
	// and methods its in-package tests name that the transform made
	// incalls (transform.Output.TestIncalls).
	TestIncalls map[string]map[string]bool
	// Offline makes every go command of the session use only what the
	// module cache and the go.sum files already hold (-mod=readonly,
	// GOPROXY=off): replay's build, whose harness is made from logs.
	Offline bool

	// ModPath is the user's module path, and GoVersion the language
	// version of its go line ("1.16", the go command's default, if it has
	// none). pinLang is set when the temporary module file's go line is
	// newer (writeModFile): the module's packages are then compiled with
	// -lang=go<GoVersion> (GoFlags), as without capture.
	ModPath   string
	GoVersion string
	pinLang   bool

	// extraTests and extraXTests are the packages of the module, not
	// observed, whose in-package test files and external test packages
	// the replay build links because the logs name types of theirs
	// (logtypes.go); extraPkgs those the harness imports, kept whole, for
	// the same reason.
	extraTests, extraXTests, extraPkgs map[string]bool
	typesOf                            map[string]map[string]bool // package -> its package-level types (declaresType)
}

// FindRoot locates rules_capture's source tree: the -root flag, then
// $CAPTURE_ROOT, then the directory this binary was built from.
func FindRoot(flagRoot string) (string, error) {
	for _, c := range []string{flagRoot, os.Getenv(EnvRoot), builtFrom()} {
		if c == "" {
			continue
		}
		if isRoot(c) {
			return filepath.Abs(c)
		}
	}
	return "", fmt.Errorf("cannot find rules_capture's source tree: pass -root DIR or set %s to the directory holding its go.mod", EnvRoot)
}

func builtFrom() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	// file is <root>/tool/internal/frontend/frontend.go
	return filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(file))))
}

func isRoot(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	return err == nil && strings.Contains(string(b), "module "+Module+"\n")
}

var _ = debug.ReadBuildInfo

// NewSession prepares the temporary module file for the module containing dir.
func NewSession(dir string, observed []string, root string) (*Session, error) {
	env := os.Environ()
	modDir, goMod, err := load.ModuleRoot(dir, env)
	if err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp("", "capture-")
	if err != nil {
		return nil, err
	}
	s := &Session{Dir: modDir, Observed: observed, Root: root, Work: work, Overlay: map[string]string{}, Env: env}
	if err := s.writeModFile(goMod); err != nil {
		return nil, err
	}
	return s, nil
}

// Close removes the temporary directory.
func (s *Session) Close() { os.RemoveAll(s.Work) }

func (s *Session) writeModFile(goMod string) error {
	mod, err := os.ReadFile(goMod)
	if err != nil {
		return err
	}
	if strings.Contains(string(mod), Module) {
		// The module already requires (or is) rules_capture.
		if strings.Contains(string(mod), "module "+Module) {
			s.ModFile = ""
			return nil
		}
	}
	text, err := s.keepLanguage(goMod, mod)
	if err != nil {
		return err
	}
	text += fmt.Sprintf("\nrequire %s v0.0.0-00010101000000-000000000000\n\nreplace %s => %s\n", Module, Module, s.Root)
	s.ModFile = filepath.Join(s.Work, "go.mod")
	if err := os.WriteFile(s.ModFile, []byte(text), 0o644); err != nil {
		return err
	}
	// go.sum: the module's own sums plus rules_capture's (its dependencies).
	var sum []byte
	for _, p := range []string{strings.TrimSuffix(goMod, ".mod") + ".sum", filepath.Join(s.Root, "go.sum")} {
		b, err := os.ReadFile(p)
		if err == nil {
			sum = append(sum, b...)
			if len(sum) > 0 && sum[len(sum)-1] != '\n' {
				sum = append(sum, '\n')
			}
		}
	}
	return os.WriteFile(filepath.Join(s.Work, "go.sum"), sum, 0o644)
}

// keepLanguage returns the text of the temporary module file before the
// lines that add rules_capture: the user's go.mod, with its go line raised
// to rules_capture's when that is newer, and the module's own semantics
// kept by other means.
//
// The go line of the main module sets the language version of its
// packages (per-iteration loop variables came with go 1.22, for one), the
// default GODEBUG settings of its programs, and the version vet checks
// against. The go command requires the main module's go line to be at
// least that of every module in the build (with -mod=mod it raises the
// line itself; with -mod=readonly it refuses: "updates to go.mod needed"),
// and rules_capture's runtime needs a newer Go than many modules declare.
// So the line cannot stay as it was; instead:
//   - the module's packages are compiled with -lang=go<its version>
//     (GoFlags), which is what the go command passes without capture; a
//     file's own //go:build goX.Y line still sets its version, as before;
//   - a "godebug default=go<its version>" line keeps its GODEBUG defaults,
//     unless its go.mod chooses them itself with a default of its own;
//   - vet is not run on the instrumented build: capture test runs the
//     module's own vet with its own go.mod (see its testPackage).
//
// The dependencies' go lines govern their own packages, as without
// capture. The toolchain line is kept as it was: the toolchain is the
// newer of it and the go line, both at least the running one here.
func (s *Session) keepLanguage(goMod string, mod []byte) (string, error) {
	f, err := modfile.ParseLax(goMod, mod, nil)
	if err != nil {
		return "", err
	}
	if f.Module != nil {
		s.ModPath = f.Module.Mod.Path
	}
	s.GoVersion = "1.16" // the go command's default for a go.mod without a go line
	if f.Go != nil {
		s.GoVersion = langVersion(f.Go.Version)
	}
	rootMod := filepath.Join(s.Root, "go.mod")
	rb, err := os.ReadFile(rootMod)
	if err != nil {
		return "", err
	}
	rf, err := modfile.ParseLax(rootMod, rb, nil)
	if err != nil {
		return "", err
	}
	if rf.Go == nil || !langLess(s.GoVersion, langVersion(rf.Go.Version)) {
		return string(mod), nil
	}
	s.pinLang = true
	text := string(mod)
	goLine := "go " + rf.Go.Version
	if f.Go != nil && f.Go.Syntax != nil {
		start, end := f.Go.Syntax.Start.Byte, f.Go.Syntax.End.Byte
		text = text[:start] + goLine + text[end:]
	} else {
		text += "\n" + goLine + "\n"
	}
	// ParseLax skips godebug lines (and a strict parse fails on
	// directives newer than this x/mod): a default is a line of its own,
	// "godebug default=..." or "default=..." in a godebug block.
	if !godebugDefault.MatchString(text) {
		text += fmt.Sprintf("\n// capture: the GODEBUG defaults of the module's own go line\ngodebug default=go%s\n", s.GoVersion)
	}
	return text, nil
}

var godebugDefault = regexp.MustCompile(`(?m)^[ \t]*(godebug[ \t]+)?default[ \t]*=`)

// langVersion is the language version (major.minor) of a go line's
// version: "1.21" for 1.21.3 or 1.21rc1.
func langVersion(v string) string {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return v
	}
	minor := parts[1]
	for i, c := range minor {
		if c < '0' || c > '9' {
			minor = minor[:i]
			break
		}
	}
	return parts[0] + "." + minor
}

// langLess reports whether language version a is older than b.
func langLess(a, b string) bool {
	var am, an, bm, bn int
	fmt.Sscanf(a, "%d.%d", &am, &an)
	fmt.Sscanf(b, "%d.%d", &bm, &bn)
	return am < bm || am == bm && an < bn
}

// GoFlags are the flags every go command of the session needs.
func (s *Session) GoFlags() []string {
	var f []string
	if s.ModFile != "" {
		f = append(f, "-modfile="+s.ModFile)
	}
	switch {
	case s.Offline:
		f = append(f, "-mod=readonly")
	case s.ModFile != "":
		f = append(f, "-mod=mod")
	}
	if len(s.Overlay) > 0 {
		f = append(f, "-overlay="+filepath.Join(s.Work, "overlay.json"))
	}
	if s.pinLang && s.ModPath != "" {
		// The module's own language version (keepLanguage). The go command
		// passes -lang from the go line first and the -gcflags after, and
		// the compiler takes the last. Modules nested under the module's
		// path keep their own (an empty flag list for their packages: the
		// latest matching -gcflags wins).
		f = append(f, "-gcflags="+s.ModPath+"/...=-lang=go"+s.GoVersion)
		for _, m := range s.nestedModules() {
			f = append(f, "-gcflags="+m+"/...=")
		}
	}
	return f
}

// nestedModules are the modules of listed packages whose paths lie under
// the user's module path.
func (s *Session) nestedModules() []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range s.Listed {
		if m := p.Module; m != nil && strings.HasPrefix(m.Path, s.ModPath+"/") && !seen[m.Path] {
			seen[m.Path] = true
			out = append(out, m.Path)
		}
	}
	sort.Strings(out)
	return out
}

// goEnv is the environment of the session's go commands. Offline, no
// module is downloaded (GOPROXY=off also stops the direct and GONOPROXY
// fetches): with -mod=readonly the build has what the module's go.mod,
// rules_capture's and their go.sum files name, from the module cache.
func (s *Session) goEnv() []string {
	if !s.Offline {
		return s.Env
	}
	return append(append([]string{}, s.Env...), "GOPROXY=off")
}

// Instrument lists patterns (and the observed packages) and instruments
// every observed package into the overlay. It returns the listed packages
// that patterns matched.
func (s *Session) Instrument(test bool, patterns ...string) ([]*load.ListedPackage, error) {
	flags := s.GoFlags()
	if test {
		flags = append(flags, "-test")
	}
	all, order, err := load.List(s.Dir, s.goEnv(), flags, append(append([]string{}, patterns...), s.Observed...)...)
	if err != nil {
		return nil, err
	}
	s.Listed = all
	var matched []*load.ListedPackage
	for _, p := range order {
		if !p.DepOnly && !strings.Contains(p.ImportPath, " ") && !strings.HasSuffix(p.ImportPath, ".test") && !isObserved(p.ImportPath, s.Observed) {
			matched = append(matched, p)
		}
	}
	for _, p := range order {
		if isObserved(p.ImportPath, s.Observed) && !strings.Contains(p.ImportPath, " ") {
			if !contains(matched, p) && !p.DepOnly {
				matched = append(matched, p)
			}
		}
	}
	var sources []transform.PackageSources
	var errs []error
	for _, path := range s.Observed {
		lp, ok := all[path]
		if !ok {
			errs = append(errs, fmt.Errorf("observed package %s is not in the build of %s", path, strings.Join(patterns, " ")))
			continue
		}
		if lp.Error != nil {
			errs = append(errs, fmt.Errorf("%s: %s", path, lp.Error.Err))
			continue
		}
		if lp.Name == "main" {
			errs = append(errs, fmt.Errorf("observed package %s is a main package: observe the packages it uses instead", path))
			continue
		}
		if err := s.instrumentPackage(lp, all, &sources); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	s.Hash = transform.SourceHash(sources)
	return matched, s.writeOverlay()
}

func contains(list []*load.ListedPackage, p *load.ListedPackage) bool {
	for _, q := range list {
		if q.ImportPath == p.ImportPath {
			return true
		}
	}
	return false
}

func isObserved(path string, observed []string) bool {
	for _, o := range observed {
		if o == path {
			return true
		}
	}
	return false
}

func (s *Session) instrumentPackage(lp *load.ListedPackage, all map[string]*load.ListedPackage, sources *[]transform.PackageSources) error {
	in, err := load.Listed(lp, all)
	if err != nil {
		return err
	}
	if s.pinLang && lp.Module != nil && lp.Module.Path == s.ModPath {
		// go list reports the temporary module file's raised go line.
		in.GoVersion = s.GoVersion
	}
	pkg, err := in.Check()
	if err != nil {
		return err
	}
	ps := transform.PackageSources{ImportPath: lp.ImportPath}
	for i, src := range pkg.Sources {
		ps.Files = append(ps.Files, transform.SourceFile{Name: lp.GoFiles[i], Text: src})
	}
	*sources = append(*sources, ps)
	out, err := transform.Instrument(pkg, transform.Options{Observed: s.Observed})
	if err != nil {
		return err
	}
	if s.TestIncalls == nil {
		s.TestIncalls = map[string]map[string]bool{}
	}
	s.TestIncalls[lp.ImportPath] = out.TestIncalls
	dir := filepath.Join(s.Work, "src", strings.ReplaceAll(lp.ImportPath, "/", "_"))
	written, err := load.WriteOutput(dir, lp.GoFiles, transform.GeneratedFile, out)
	if err != nil {
		return err
	}
	for i, name := range append(append([]string{}, lp.GoFiles...), transform.GeneratedFile) {
		s.Overlay[filepath.Join(lp.Dir, name)] = written[i]
	}
	return nil
}

// InstrumentExit makes the files of package lp close the log before the
// process ends (fn: "main" or "TestMain").
func (s *Session) InstrumentExit(lp *load.ListedPackage, files []string, fn string) (bool, error) {
	found := false
	for _, name := range files {
		path := filepath.Join(lp.Dir, name)
		srcPath := path
		if o, ok := s.Overlay[path]; ok {
			srcPath = o
		}
		src, err := os.ReadFile(srcPath)
		if err != nil {
			return false, err
		}
		if strings.Contains(string(src), "func "+fn+"(") {
			found = true
		}
		out, changed, err := transform.InstrumentExit(path, src, fn)
		if err != nil {
			return false, err
		}
		if !changed {
			continue
		}
		tmp := filepath.Join(s.Work, "exit", strings.ReplaceAll(lp.ImportPath, "/", "_"), name)
		if err := os.MkdirAll(filepath.Dir(tmp), 0o755); err != nil {
			return false, err
		}
		if err := os.WriteFile(tmp, out, 0o644); err != nil {
			return false, err
		}
		s.Overlay[path] = tmp
	}
	return found, s.writeOverlay()
}

// AddFile adds a file that exists only in the overlay.
func (s *Session) AddFile(path string, content []byte) error {
	tmp := filepath.Join(s.Work, "added", fmt.Sprintf("%d_%s", len(s.Overlay), filepath.Base(path)))
	if err := os.MkdirAll(filepath.Dir(tmp), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(tmp, content, 0o644); err != nil {
		return err
	}
	s.Overlay[path] = tmp
	return s.writeOverlay()
}

func (s *Session) writeOverlay() error {
	b, err := json.MarshalIndent(struct{ Replace map[string]string }{s.Overlay}, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(s.Work, "overlay.json"), b, 0o644)
}

// LDFlags are the linker flags that stamp the observed set into the binary.
func (s *Session) LDFlags(replay bool) string {
	p := transform.ProbeImport
	obs := append([]string{}, s.Observed...)
	sort.Strings(obs)
	f := fmt.Sprintf("-X %s.observedList=%s -X %s.sourceHash=%s", p, strings.Join(obs, ","), p, s.Hash)
	if replay {
		f += " -X " + p + ".buildMode=replay"
	}
	return f
}

// GoPlain runs a go command in the module as the user would, without the
// session's flags: with the module's own go.mod, on its own sources.
func (s *Session) GoPlain(sub string, args ...string) error {
	return s.runGo(s.Env, append([]string{sub}, args...))
}

// Go runs a go command in the module with the session's flags.
func (s *Session) Go(sub string, args ...string) error {
	full := append([]string{sub}, s.GoFlags()...)
	return s.runGo(s.goEnv(), append(full, args...))
}

// runGo runs go with args (the subcommand first) in the module, in env,
// its output on standard error.
func (s *Session) runGo(env, args []string) error {
	cmd := exec.Command("go", args...)
	cmd.Dir = s.Dir
	cmd.Env = env
	cmd.Stdout = os.Stderr
	cmd.Stderr = os.Stderr
	if s.Verbose {
		fmt.Fprintln(os.Stderr, "+ go", strings.Join(args, " "))
	}
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go %s: %w", args[0], err)
	}
	return nil
}

// SplitList splits a comma-separated flag value.
func SplitList(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// HasTestMain reports whether any of the files declares TestMain.
func HasTestMain(dir string, files []string) bool {
	for _, name := range files {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "func TestMain(") {
				f.Close()
				return true
			}
		}
		f.Close()
	}
	return false
}

// HarnessDir is the directory, relative to the module root, of the replay
// harness's main package; it exists only in the overlay.
const HarnessDir = "zz_capture_replay"

// BuildHarness builds the replay harness for logs (BuildHarnessFor); a bad
// log is an error.
func (s *Session) BuildHarness(logs ...string) (string, error) {
	bin, bad, err := s.BuildHarnessFor(logs)
	if err != nil {
		return "", err
	}
	for _, l := range logs {
		if bad[l] != nil {
			return "", bad[l]
		}
	}
	return bin, nil
}

// BuildHarnessFor builds the replay harness: a main package that links the
// instrumented observed packages and the player, and instantiates the
// generic incalls that the logs call (harnessgen.Generate writes its sources).
//
// Logs are files anyone may hand to replay, and the harness is made from
// their sites: a log with a site no capture writes is refused (bad names it
// with the error; its site is in no source, and it is not replayed), and the
// harness is built from the others. It names only types of packages that
// the build of the observed packages and the player already contains, and
// it is built offline (Offline), so a log can neither add a module to the
// build nor make the go command fetch one. It returns no binary when every
// log is bad.
func (s *Session) BuildHarnessFor(logs []string) (bin string, bad map[string]error, err error) {
	bad = map[string]error{}
	seen := map[string]string{}      // site -> the first log that calls it
	callers := map[string][]string{} // site -> the logs that call it
	var sites []string
	names := map[string]map[string]bool{} // types of the module the logs name (logtypes.go)
	for _, l := range logs {
		ls, err := logSites(l, s.ModPath, names)
		if err != nil {
			bad[l] = err
			continue
		}
		for _, site := range ls {
			callers[site] = append(callers[site], l)
			if seen[site] == "" {
				seen[site] = l
				sites = append(sites, site)
			}
		}
	}
	if len(bad) == len(logs) {
		return "", bad, nil
	}
	sort.Strings(sites)
	// The player's packages are part of the build too: list them, so the
	// harness may name their types (and the standard library's they use).
	// This go list depends on nothing read from a log (the user's go.mod,
	// rules_capture's, the observed packages); the modules it selects are
	// written into the temporary go.mod (requireListed), so that the
	// harness builds with -mod=readonly, offline.
	// The packages of the module that the sites' type arguments name are
	// part of it too (sitePackages), and so are the packages the observed
	// packages' test files import, whose files the build links
	// (linkTestFiles).
	// So are the packages of the module whose types the logs name, with
	// their test files where the logs need them (namedTestPackages).
	added := s.sitePackages(sites)
	named := s.namedTestPackages(names)
	patterns := append(append([]string{transform.ProbeImport}, added...), named...)
	if _, err := s.Instrument(false, patterns...); err != nil {
		return "", bad, err
	}
	s.extraTests, s.extraXTests, s.extraPkgs = map[string]bool{}, map[string]bool{}, map[string]bool{}
	for p, n := range s.classifyNames(names) {
		if n.tests {
			s.extraTests[p] = true
		}
		if n.xtest {
			s.extraXTests[p] = true
		}
		if n.pkg {
			s.extraPkgs[p] = true
		}
	}
	imports := s.testImports()
	var missing []string
	for _, o := range sortedKeys(imports) {
		for _, imp := range imports[o] {
			if s.Listed[imp] == nil && !slices.Contains(missing, imp) {
				missing = append(missing, imp)
			}
		}
	}
	for _, imp := range s.xtestImportPaths() {
		if s.Listed[imp] == nil && !slices.Contains(missing, imp) {
			missing = append(missing, imp)
		}
	}
	if len(missing) > 0 {
		// Listed again with what the test files import, on the module's
		// own files: the overlay of the first listing would add the
		// instrumented package's generated file to its files.
		s.Overlay = map[string]string{}
		if _, err := s.Instrument(false, append(patterns, missing...)...); err != nil {
			return "", bad, err
		}
	}
	s.dropUnusable(added)
	// A package linked for the logs' types must not run observed code
	// while replay initialises (initRunsObserved).
	memo := map[string]string{}
	for _, p := range sortedKeys(union(s.extraTests, s.extraXTests, s.extraPkgs)) {
		roots := []string{p}
		if s.extraTests[p] {
			roots = append(roots, imports[p]...)
		}
		if lp := s.Listed[p]; s.extraXTests[p] && lp != nil {
			roots = append(roots, s.xtestImportsOf(lp)...)
		}
		for _, r := range roots {
			if why := s.initRunsObserved(r, memo); why != "" {
				fmt.Fprintf(os.Stderr, "capture replay: note: %s is not linked into the replay build for the types the logs name: %s\n", p, why)
				delete(s.extraTests, p)
				delete(s.extraXTests, p)
				delete(s.extraPkgs, p)
				if !isObserved(p, s.Observed) {
					delete(imports, p)
				}
				break
			}
		}
	}
	linkedTests, notes, err := s.linkTestFiles(imports)
	if err != nil {
		return "", bad, err
	}
	for _, n := range notes {
		fmt.Fprintln(os.Stderr, "capture replay: note:", n)
	}
	xtests, xnotes, restore, err := s.linkXTests(linkedTests)
	if err != nil {
		return "", bad, err
	}
	for _, n := range xnotes {
		fmt.Fprintln(os.Stderr, "capture replay: note:", n)
	}
	if len(xtests) > 0 {
		all, _, err := load.List(s.Dir, s.goEnv(), s.GoFlags(), xtests...)
		why := ""
		if err != nil {
			why = err.Error()
		}
		for _, x := range xtests {
			if lp := all[x]; why == "" && (lp == nil || lp.Error != nil) {
				why = x + " is not listed"
				if lp != nil {
					why = lp.Error.Err
				}
			}
		}
		if why != "" {
			// Replay the logs without them: their types stay unbuilt,
			// and replay names them.
			fmt.Fprintf(os.Stderr, "capture replay: note: the external test packages %s are not linked into the replay build: %s\n", strings.Join(xtests, ", "), why)
			xtests = nil
			if err := restore(); err != nil {
				return "", bad, err
			}
		}
		for p, lp := range all {
			if s.Listed[p] == nil && xtests != nil {
				s.Listed[p] = lp
			}
		}
		for _, x := range xtests {
			linkedTests[x] = true
		}
	}
	if err := s.exportWithTests(linkedTests); err != nil {
		return "", bad, err
	}
	for _, p := range sortedKeys(s.extraPkgs) {
		if lp := s.Listed[p]; lp == nil || lp.Error != nil || lp.Name == "main" {
			delete(s.extraPkgs, p)
			continue
		}
		if err := s.keepPackage(s.Listed[p]); err != nil {
			return "", bad, err
		}
	}
	if err := s.requireListed(); err != nil {
		return "", bad, err
	}
	s.Offline = true
	modPath, err := modulePath(filepath.Join(s.Dir, "go.mod"))
	if err != nil {
		return "", bad, err
	}
	rel, err := harnessParent(modPath, s.Observed)
	if err != nil {
		return "", bad, err
	}
	dir := filepath.Join(s.Dir, filepath.FromSlash(rel), HarnessDir)
	skipped, err := s.addHarness(dir, path.Join(modPath, filepath.ToSlash(rel), HarnessDir), sites, seen, linkedTests)
	if err != nil {
		return "", bad, err
	}
	refuseUninstantiable(bad, callers, skipped)
	// The harness imports the linked external test packages and the
	// packages the logs name, where Go's rule for internal packages lets it.
	harnessPath := path.Join(modPath, filepath.ToSlash(rel), HarnessDir)
	linkedPkgs := append([]string{}, xtests...)
	for _, p := range sortedKeys(s.extraPkgs) {
		if internalImport(harnessPath, []string{p}) == "" && !slices.Contains(linkedPkgs, p) {
			linkedPkgs = append(linkedPkgs, p)
		}
	}
	for _, p := range sortedKeys(s.extraTests) {
		lp := s.Listed[p]
		if linkedTests[p] && lp != nil && lp.Error == nil && internalImport(harnessPath, []string{p}) == "" && !slices.Contains(linkedPkgs, p) {
			linkedPkgs = append(linkedPkgs, p)
		}
	}
	if len(linkedPkgs) > 0 {
		src, err := xtestImports(linkedPkgs)
		if err != nil {
			return "", bad, err
		}
		if err := s.AddFile(filepath.Join(dir, "xtests.go"), src); err != nil {
			return "", bad, err
		}
	}
	bin = filepath.Join(s.Work, "replay-harness")
	build := func() error {
		return s.Go("build", "-ldflags="+s.LDFlags(true), "-o", bin, "./"+filepath.ToSlash(filepath.Join(rel, HarnessDir)))
	}
	if err := build(); err != nil {
		// What the logs' types added is code no test of the observed
		// packages compiled this way: where the build fails with it,
		// replay goes on without it (its types stay unbuilt, and replay
		// names them), as it did before.
		retry, rerr := s.dropExtras(dir, xtests)
		if rerr != nil || !retry {
			return "", bad, err
		}
		fmt.Fprintf(os.Stderr, "capture replay: note: the packages linked into the replay build for the types the logs name do not build with it (%v); replaying without them\n", firstLine(err.Error()))
		if err := build(); err != nil {
			return "", bad, err
		}
	}
	return bin, bad, nil
}

// refuseUninstantiable marks as bad the logs that call a generic
// instantiation the harness could not make (skipped: "site: why", as
// harnessgen.Generate says). Replay would invoke that instantiation when it
// reaches the call, and it is not in the binary: the log would diverge there
// on unchanged code. Such a log is refused before it is replayed, naming the
// instantiation, why the harness cannot make it and the way out.
func refuseUninstantiable(bad map[string]error, callers map[string][]string, skipped []string) {
	for _, sk := range skipped {
		for site, logs := range callers {
			why, ok := strings.CutPrefix(sk, site+": ")
			if !ok {
				continue
			}
			for _, l := range logs {
				if bad[l] == nil {
					bad[l] = fmt.Errorf("%s: calls %s, a generic instantiation the replay harness cannot make (%s), so the log is not replayed: declare the type arguments the tests pass to observed generic code at package level, exported, in a non-test package of the module (docs/limitations.md)", l, site, why)
				}
			}
		}
	}
}

// dropExtras removes from the replay build what the logs' types added
// (logtypes.go): the files added to the packages of extraTests and
// extraPkgs, and the harness's imports of them and of the external test
// packages of extraXTests, keeping those of the observed packages. It
// reports whether there was anything to drop.
func (s *Session) dropExtras(harnessDir string, xtests []string) (bool, error) {
	dirs := map[string]bool{}
	for p := range union(s.extraTests, s.extraPkgs) {
		if lp := s.Listed[p]; lp != nil && !isObserved(p, s.Observed) {
			dirs[lp.Dir] = true
		}
	}
	var keep []string
	for _, x := range xtests {
		if isObserved(strings.TrimSuffix(x, "_test"), s.Observed) {
			keep = append(keep, x)
		}
	}
	if len(dirs) == 0 && len(keep) == len(xtests) {
		return false, nil
	}
	for k := range s.Overlay {
		if dirs[filepath.Dir(k)] {
			delete(s.Overlay, k)
		}
	}
	s.extraTests, s.extraXTests, s.extraPkgs = nil, nil, nil
	if len(keep) == 0 {
		delete(s.Overlay, filepath.Join(harnessDir, "xtests.go"))
		return true, s.writeOverlay()
	}
	src, err := xtestImports(keep)
	if err != nil {
		return false, err
	}
	return true, s.AddFile(filepath.Join(harnessDir, "xtests.go"), src)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// requireListed makes the temporary go.mod require, at the versions the
// go command selected, every module that provides a listed package. The go
// command requires the main module's go.mod to name each module its build
// imports from, and the temporary go.mod lacks rules_capture's (the
// player's) dependencies: -mod=mod would add them during the build, but the
// harness is built with -mod=readonly, which refuses any change, so that
// no import a log named could add a module. The go.sum already holds their
// sums (writeModFile copies rules_capture's).
func (s *Session) requireListed() error {
	if s.ModFile == "" {
		return nil // the module is rules_capture, whose go.mod is complete
	}
	data, err := os.ReadFile(s.ModFile)
	if err != nil {
		return err
	}
	f, err := modfile.Parse(s.ModFile, data, nil)
	if err != nil {
		return err
	}
	have := map[string]string{}
	for _, r := range f.Require {
		have[r.Mod.Path] = r.Mod.Version
	}
	changed := false
	for _, p := range s.Listed {
		m := p.Module
		if m == nil || m.Version == "" || m.Path == Module {
			continue // the standard library, the main module, rules_capture
		}
		switch v, ok := have[m.Path]; {
		case !ok:
			if err := f.AddRequire(m.Path, m.Version); err != nil {
				return err
			}
			f.Require[len(f.Require)-1].Indirect = true
		case semver.Compare(v, m.Version) < 0:
			if err := f.AddRequire(m.Path, m.Version); err != nil {
				return err
			}
		default:
			continue
		}
		have[m.Path] = m.Version
		changed = true
	}
	if !changed {
		return nil
	}
	f.Cleanup()
	out, err := f.Format()
	if err != nil {
		return err
	}
	return os.WriteFile(s.ModFile, out, 0o644)
}

// harnessParent returns the directory, relative to the module root, under
// which the harness may import every observed package: the module root, or
// for internal packages the parent of their internal directory.
func harnessParent(modPath string, observed []string) (string, error) {
	need := ""
	for _, o := range observed {
		i := strings.LastIndex(o, "/internal/")
		if i < 0 && strings.HasSuffix(o, "/internal") {
			i = len(o) - len("/internal")
		}
		if i < 0 {
			continue
		}
		parent := o[:i]
		switch {
		case need == "" || strings.HasPrefix(parent+"/", need+"/"):
			need = parent
		case strings.HasPrefix(need+"/", parent+"/"):
		default:
			return "", fmt.Errorf("observed internal packages %s need the replay harness under both %s and %s: replay them separately", o, need, parent)
		}
	}
	if need == "" || need == modPath {
		return ".", nil
	}
	if !strings.HasPrefix(need, modPath+"/") {
		return "", fmt.Errorf("internal package parent %s is outside module %s", need, modPath)
	}
	return strings.TrimPrefix(need, modPath+"/"), nil
}

func modulePath(goMod string) (string, error) {
	b, err := os.ReadFile(goMod)
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`), nil
		}
	}
	return "", fmt.Errorf("%s: no module line", goMod)
}
