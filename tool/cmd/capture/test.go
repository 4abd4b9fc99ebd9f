package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/probectl"
	"github.com/rules-capture/rules_capture/tool/internal/frontend"
	"github.com/rules-capture/rules_capture/tool/internal/harnessgen"
	"github.com/rules-capture/rules_capture/tool/internal/load"
)

func init() {
	register("test", command{"run tests under capture, one process and one log per test function", runTest})
}

func runTest(args []string) int {
	fs := flag.NewFlagSet("capture test", flag.ContinueOnError)
	observe := fs.String("observe", "", "comma-separated import paths of the observed packages (required)")
	logs := fs.String("logs", "", "directory for the logs, one per test: DIR/<package>/<Test>.arrow (required)")
	run := fs.String("run", "", "run only tests matching this regular expression (as go test -run)")
	root := fs.String("root", "", "rules_capture's source tree (default: $"+frontend.EnvRoot+" or where capture was built from)")
	verbose := fs.Bool("v", false, "print the go commands and test output")
	keep := fs.String("keep-binaries", "", "also keep each instrumented test binary in this directory, as <import path with _ for />.test (to time or rerun the tests without rebuilding)")
	maxLog := fs.String("max-log-bytes", DefaultMaxLogBytes, "cap on each test's log (as $"+probectl.EnvMaxBytes+": 64MiB, 1GB, 500000; 0: no cap); past it the log ends cleanly, the events already appended are counted as lost (lost_why=size_cap), capture is off for the rest of the test, and replay refuses the log. $"+probectl.EnvMaxBytes+", if set, wins")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: capture test -observe PKG[,PKG] -logs DIR [-run RE] [-max-log-bytes SIZE] [-keep-binaries DIR] [packages]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	obs := frontend.SplitList(*observe)
	if len(obs) == 0 || *logs == "" {
		fs.Usage()
		return 2
	}
	logEnv, limit, err := maxLogEnv(*maxLog)
	if err != nil {
		fmt.Fprintf(os.Stderr, "capture test: -max-log-bytes: %v\n", err)
		return 2
	}
	var re *regexp.Regexp
	if *run != "" {
		var err error
		if re, err = regexp.Compile(*run); err != nil {
			fmt.Fprintf(os.Stderr, "capture test: -run: %v\n", err)
			return 2
		}
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	logDir, err := filepath.Abs(*logs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "capture test:", err)
		return 2
	}
	rootDir, err := frontend.FindRoot(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "capture test:", err)
		return 2
	}
	keepDir := ""
	if *keep != "" {
		if keepDir, err = filepath.Abs(*keep); err == nil {
			err = os.MkdirAll(keepDir, 0o755)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "capture test: -keep-binaries:", err)
			return 2
		}
	}
	s, err := frontend.NewSession(".", obs, rootDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "capture test:", err)
		return 1
	}
	defer s.Close()
	s.Verbose = *verbose
	pkgs, err := s.Instrument(true, patterns...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "capture test:", err)
		return 1
	}
	var rejected []string
	skip := map[string]map[string]string{} // test package -> test -> why it is not run
	for _, path := range obs {
		if lp := s.Listed[path]; lp != nil {
			msgs, tests, err := whiteBoxWrites(s.Listed, lp, s.TestIncalls[path])
			if err != nil {
				fmt.Fprintf(os.Stderr, "capture test: %s: %v\n", path, err)
				return 1
			}
			rejected = append(rejected, msgs...)
			if tests != nil {
				skip[path] = tests
			}
		}
	}
	if len(rejected) > 0 {
		for _, m := range rejected {
			fmt.Fprintln(os.Stderr, "capture test:", m)
		}
		return 1
	}
	failed := 0
	for _, lp := range pkgs {
		if len(lp.TestGoFiles)+len(lp.XTestGoFiles) == 0 {
			continue
		}
		n, err := testPackage(s, lp, logDir, keepDir, re, skip[lp.ImportPath], logEnv, limit, *verbose)
		if err != nil {
			fmt.Fprintf(os.Stderr, "capture test: %s: %v\n", lp.ImportPath, err)
			failed++
		}
		failed += n
	}
	if failed > 0 {
		return 1
	}
	return 0
}

// testPackage builds lp's test binary under capture and runs each of its
// test functions in its own process; it returns the number of failures.
// With keepDir, the binary is also kept there. The tests in skip are not
// run: each is reported as rejected up front with its reason (an
// in-package test writing an unexported field of an observed type).
// logEnv is added to each test's environment, and limit is the cap on
// its log (maxLogEnv).
func testPackage(s *frontend.Session, lp *load.ListedPackage, logDir, keepDir string, re *regexp.Regexp, skip map[string]string, logEnv []string, limit string, verbose bool) (int, error) {
	testFiles := append(append([]string{}, lp.TestGoFiles...), lp.XTestGoFiles...)
	if frontend.HasTestMain(lp.Dir, testFiles) {
		// The user's TestMain: its os.Exit closes the log first.
		if _, err := s.InstrumentExit(lp, testFiles, "TestMain"); err != nil {
			return 0, err
		}
	} else {
		name := lp.Name
		if len(lp.TestGoFiles) == 0 {
			name += "_test"
		}
		src, err := harnessgen.CaptureTestMain(name)
		if err != nil {
			return 0, err
		}
		if err := s.AddFile(filepath.Join(lp.Dir, "zz_capture_testmain_test.go"), src); err != nil {
			return 0, err
		}
	}
	dir := s.Work
	if keepDir != "" {
		dir = keepDir
	}
	if link := linkObserved(s, lp); link != nil {
		if err := s.AddFile(filepath.Join(lp.Dir, "zz_capture_link_test.go"), link); err != nil {
			return 0, err
		}
	}
	// Vet: go test vets a package's tests before it runs them, and so does
	// capture test, with the module's own go.mod on its own sources (the
	// default checks of go test, or what GOFLAGS's -vet chooses): the
	// instrumented build's temporary go.mod has a newer go line
	// (frontend's keepLanguage), against which vet would check the
	// module's code, and its files are the instrumented ones. So the
	// instrumented build runs with -vet=off.
	if err := s.GoPlain("test", "-c", "-o", os.DevNull, lp.ImportPath); err != nil {
		return 0, fmt.Errorf("vet or build without capture: %w", err)
	}
	bin := filepath.Join(dir, strings.ReplaceAll(lp.ImportPath, "/", "_")+".test")
	if err := s.Go("test", "-c", "-vet=off", "-ldflags="+s.LDFlags(false), "-o", bin, lp.ImportPath); err != nil {
		return 0, err
	}
	list := exec.Command(bin, "-test.list", ".")
	list.Dir = lp.Dir
	list.Env = append(os.Environ(), probectl.EnvCapture+"=off")
	out, err := list.Output()
	if err != nil {
		return 0, fmt.Errorf("listing tests: %v", err)
	}
	var tests []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		name := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(name, "Test") || re != nil && !re.MatchString(name) {
			continue
		}
		if why, ok := skip[name]; ok {
			fmt.Printf("rejected %s.%s: %s\n", lp.ImportPath, name, why)
			continue
		}
		tests = append(tests, name)
	}
	dir = filepath.Join(logDir, strings.ReplaceAll(lp.ImportPath, "/", "_"))
	if err := os.MkdirAll(dir, 0o700); err != nil { // logs hold the tests' data
		return 0, err
	}
	failed := 0
	for _, name := range tests {
		log := filepath.Join(dir, name+".arrow")
		// A capture never overwrites a log: the previous run's goes first.
		if err := os.Remove(log); err != nil && !os.IsNotExist(err) {
			return failed, err
		}
		cmd := exec.Command(bin, "-test.run", "^"+regexp.QuoteMeta(name)+"$", "-test.count=1")
		cmd.Dir = lp.Dir
		// Block: every event, or the log cannot be replayed; a test waiting
		// for the disk harms nobody (a service's default is drop).
		cmd.Env = append(append(testEnviron(), probectl.EnvLog+"="+log, probectl.EnvPolicy+"=block"), logEnv...)
		out, err := cmd.CombinedOutput()
		capped := ""
		if limit != "" {
			capped = cappedNote(log, limit)
		}
		if err != nil {
			failed++
			fmt.Printf("FAIL %s.%s (log %s)\n%s%s", lp.ImportPath, name, log, out, capped)
			continue
		}
		fmt.Printf("ok   %s.%s -> %s\n%s", lp.ImportPath, name, log, capped)
		if verbose {
			os.Stdout.Write(out)
		}
	}
	return failed, nil
}

// DefaultMaxLogBytes is capture test's cap on each test's log: a test
// that loops for minutes under capture (a benchmark-like performance test)
// can otherwise write tens of gigabytes and fill the disk.
const DefaultMaxLogBytes = "256MiB"

// testEnviron is this process's environment less the variables that
// rotate the log or make it a flight recorder (probectl.FieldEnv): each
// test's log must be the one file named for it, which the report and
// replay read back, whatever the shell that started capture test has set
// for the services it captures.
func testEnviron() []string {
	env := os.Environ()
	out := env[:0:0]
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(probectl.FieldEnv, name) {
			out = append(out, kv)
		}
	}
	return out
}

// maxLogEnv is the environment that caps each test's log at flag (0: no
// cap), and the cap in force. A CAPTURE_MAX_BYTES of the user's
// environment wins: it is already in each test's environment, and nothing
// is added.
func maxLogEnv(flag string) (env []string, limit string, err error) {
	if v := os.Getenv(probectl.EnvMaxBytes); v != "" {
		return nil, v, nil
	}
	if flag == "0" || flag == "" {
		return nil, "", nil
	}
	if _, err := probectl.ParseBytes(flag); err != nil {
		return nil, "", err
	}
	return []string{probectl.EnvMaxBytes + "=" + flag}, flag, nil
}

// cappedNote is a line saying that the log reached its size cap (limit,
// as given), or "".
func cappedNote(log, limit string) string {
	r, err := eventlog.Open(log)
	if err != nil {
		return ""
	}
	st := r.Meta().Status
	r.Close()
	if st.LostWhy != "size_cap" {
		return ""
	}
	return fmt.Sprintf("     log capped at %s: capture went off there (%d events past the cap were not written), and replay refuses it (raise -max-log-bytes or $%s)\n", limit, st.Lost, probectl.EnvMaxBytes)
}

// linkObserved returns an external test file that imports every observed
// package lp's tests do not link already (nil if none): the replay harness
// links the whole observed set, so the initialisation of every observed
// package (stream 0) must be in every log, or replay meets init outcalls the
// log does not hold. Packages that cannot be imported from lp (internal to
// another tree, main packages) are left out.
func linkObserved(s *frontend.Session, lp *load.ListedPackage) []byte {
	var imports []string
	for _, path := range s.Observed {
		op := s.Listed[path]
		if op == nil || op.Name == "main" || path == lp.ImportPath || !importable(lp.ImportPath, path) {
			continue
		}
		imports = append(imports, path)
	}
	if len(imports) == 0 {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "// Code generated by capture test. DO NOT EDIT.\n\n// Every observed package is initialised, as in the replay harness.\npackage %s_test\n\nimport (\n", lp.Name)
	for _, path := range imports {
		fmt.Fprintf(&b, "\t_ %q\n", path)
	}
	b.WriteString(")\n")
	return []byte(b.String())
}

// importable reports whether code in package from may import package to
// under Go's rule for internal directories.
func importable(from, to string) bool {
	i := strings.LastIndex(to, "/internal/")
	if i < 0 {
		if strings.HasSuffix(to, "/internal") {
			i = len(to) - len("/internal")
		} else if strings.HasPrefix(to, "internal/") || to == "internal" {
			return false
		} else {
			return true
		}
	}
	parent := to[:i]
	return from == parent || strings.HasPrefix(from, parent+"/")
}
