package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rules-capture/rules_capture/runtime/probectl"
	"github.com/rules-capture/rules_capture/tool/internal/frontend"
	"github.com/rules-capture/rules_capture/tool/minimize"
)

func init() {
	register("minimize", command{"reduce a log whose replay fails to a minimal one, with a listing and a Go test", stdio(runMinimize)})
}

func runMinimize(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("capture minimize", flag.ContinueOnError)
	observe := fs.String("observe", "", "comma-separated import paths of the observed packages (required)")
	check := fs.String("check", probectl.CheckStrict, "check level: strict, returns or crash")
	out := fs.String("o", "minimized", "output directory: the test file, testdata/repro/<Test>.arrow and its listing")
	timeout := fs.Duration("timeout", 0, "time limit (0: none); the result is then the smallest failing log found so far")
	replayTimeout := fs.Duration("replay-timeout", time.Minute, "limit for one candidate's replay (a candidate that runs past it is unresolved)")
	baseline := fs.String("baseline", "", "module root of code the failure does not show on (the code that recorded the log, or the fix): a candidate counts as failing only if it passes there")
	same := fs.String("same", minimize.SameEvent, "what makes a candidate's failure the same: event (reason, kind, site and what the code did) or site (reason, kind and site)")
	name := fs.String("name", "", "name of the generated test function (default TestRepro<failing function>)")
	root := fs.String("root", "", "rules_capture's source tree (default: $"+frontend.EnvRoot+" or where capture was built from)")
	failure := fs.String("failure", "1", "which recorded panic is the failure, for a log that replays as recorded and records several: N (the N-th, from 1) or last")
	wholeLog := fs.Bool("whole-log", false, "minimize the whole log even where it has checkpoints before the failure (default: start from the latest checkpoint whose segment fails the same way)")
	verbose := fs.Bool("v", false, "print the go commands")
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: capture minimize -observe PKG[,PKG] [-o DIR] [-timeout D] [-baseline DIR] [-failure N|last] [-whole-log] LOG\n\nReduces LOG, whose replay against the code here fails, to a minimal log that fails the same way.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	obs := frontend.SplitList(*observe)
	if len(obs) == 0 || fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	if !probectl.ValidCheck(*check) {
		fmt.Fprintf(stderr, "capture minimize: -check %q: want strict, returns or crash\n", *check)
		return 2
	}
	if *same != minimize.SameEvent && *same != minimize.SameSite {
		fmt.Fprintf(stderr, "capture minimize: -same %q: want event or site\n", *same)
		return 2
	}
	opt := minimize.Options{WholeLog: *wholeLog}
	if *failure == "last" {
		opt.Failure = -1
	} else if n, err := strconv.Atoi(*failure); err == nil && n >= 1 {
		opt.Failure = n
	} else {
		fmt.Fprintf(stderr, "capture minimize: -failure %q: want N (from 1) or last\n", *failure)
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintln(stderr, "capture minimize:", err)
		return 1
	}
	logPath, err := filepath.Abs(fs.Arg(0))
	if err != nil {
		return fail(err)
	}
	if _, err := checkReplayLog(logPath, obs); err != nil {
		return fail(err)
	}
	l, err := minimize.Read(logPath)
	if err != nil {
		return fail(err)
	}
	rootDir, err := frontend.FindRoot(*root)
	if err != nil {
		fmt.Fprintln(stderr, "capture minimize:", err)
		return 2
	}
	// One harness for every candidate: a candidate's incalls are a subset
	// of the log's, so the log's harness instantiates all they call.
	harness := func(dir string) (string, func(), error) {
		s, err := frontend.NewSession(dir, obs, rootDir)
		if err != nil {
			return "", nil, err
		}
		s.Verbose = *verbose
		bin, err := s.BuildHarness(logPath)
		if err != nil {
			s.Close()
			return "", nil, err
		}
		return bin, s.Close, nil
	}
	fmt.Fprintln(stderr, "minimize: building the replay harness")
	bin, done, err := harness(".")
	if err != nil {
		return fail(err)
	}
	defer done()
	scratch, err := os.MkdirTemp("", "capture-minimize-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(scratch)
	r := &minimize.Replayer{Harness: bin, Check: *check, Same: *same, Dir: scratch, Timeout: *replayTimeout}
	if *baseline != "" {
		fmt.Fprintln(stderr, "minimize: building the baseline's replay harness")
		b, done, err := harness(*baseline)
		if err != nil {
			return fail(fmt.Errorf("baseline: %w", err))
		}
		defer done()
		r.Baseline = b
	}
	ctx := context.Background()
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	res, err := minimize.Minimize(ctx, l, r, opt, stderr)
	if err != nil {
		return fail(err)
	}
	files, err := writeMinimized(l, res, obs, *check, *out, *name, filepath.Base(logPath))
	if err != nil {
		return fail(err)
	}
	c := res.Log.Candidate(res.Keep)
	fmt.Fprintf(stdout, "%s: %d -> %d incalls, %d -> %d events, %d replays, %s\n", fs.Arg(0), len(l.Units), len(res.Keep), len(l.Events), len(c.Events), res.Replays, res.Elapsed.Round(10*time.Millisecond))
	if res.From != 0 {
		fmt.Fprintf(stdout, "from the checkpoint at seq %d: the minimal log is a segment\n", res.From)
	}
	fmt.Fprintf(stdout, "failure: %s\n", res.Failure)
	for _, f := range files {
		fmt.Fprintf(stdout, "wrote %s\n", f)
	}
	return 0
}

// writeMinimized writes the outputs into dir, laid out as the package
// directory they belong to: <pkg>_repro_test.go, testdata/repro/<Test>.arrow
// (the minimal log) and testdata/repro/<Test>.txt (its listing).
//
// l is the log given to minimize; res.Log, the log the result refers to,
// is l or a segment of it.
func writeMinimized(l *minimize.Log, res *minimize.Result, obs []string, check, dir, name, logName string) ([]string, error) {
	m := res.Log
	c := m.Candidate(res.Keep)
	site := ""
	if e, ok := m.Event(res.FailSeq); ok {
		site = e.Site
	}
	if u := m.UnitOf(res.FailSeq); u >= 0 {
		site = m.Units[u].Site
	}
	if name == "" {
		name = minimize.TestName(site)
	}
	pkg := minimize.ReproPackage(site, obs)
	repro := &minimize.Repro{
		Package:  pkg,
		Name:     packageName(pkg),
		Observed: obs,
		Check:    check,
		Test:     name,
		Log:      "testdata/repro/" + name + ".arrow",
	}
	var listing bytes.Buffer
	minimize.Listing(&listing, m, c, res.FailSeq, res.Failure)
	repro.Listing = listing.String()
	repro.Summary = fmt.Sprintf("The log holds %d of the %d incalls of %s (%d of %d events); its replay fails: %s.",
		len(res.Keep), len(l.Units), logName, len(c.Events), len(l.Events), res.Failure)
	if f := res.Failure; f.Panic {
		repro.Summary = fmt.Sprintf("The log holds %d of the %d incalls of %s (%d of %d events); the failure: %s.",
			len(res.Keep), len(l.Units), logName, len(c.Events), len(l.Events), f)
		repro.Panic = &minimize.PanicRepro{Value: f.Actual, Site: f.Site, Pos: f.Pos, From: c.SeqOf(f.PanicCall), To: c.SeqOf(f.PanicEnd)}
	}
	src, err := repro.Source()
	if err != nil {
		return nil, err
	}
	var head bytes.Buffer
	minimize.ListingHeader(&head, l, c, res, logName)
	repoDir := filepath.Join(dir, "testdata", "repro")
	if err := os.MkdirAll(repoDir, 0o755); err != nil {
		return nil, err
	}
	logOut := filepath.Join(dir, filepath.FromSlash(repro.Log))
	_ = os.Remove(logOut) // the writer never overwrites a log; a rerun replaces its own output
	if err := c.Write(logOut, m.Meta); err != nil {
		return nil, err
	}
	// The explanation of every event follows the listing: the same
	// interaction, told in terms of the package's API.
	var explain bytes.Buffer
	fmt.Fprintf(&explain, "\n")
	minimize.ExplainHeader(&explain, m, c.Events, filepath.Base(logOut))
	notes := map[uint64]string{}
	if seq := c.SeqOf(res.FailSeq); seq != 0 {
		notes[seq] = "today's code diverges here: " + res.Failure.Reason
		if res.Failure.Panic {
			notes[seq] = "the panic that is the failure: the test fails while the code still panics here"
		}
	}
	minimize.Explain(&explain, c.Events, notes)
	listOut := strings.TrimSuffix(logOut, ".arrow") + ".txt"
	if err := os.WriteFile(listOut, slices.Concat(head.Bytes(), listing.Bytes(), explain.Bytes()), 0o644); err != nil {
		return nil, err
	}
	testOut := filepath.Join(dir, repro.FileName())
	if err := os.WriteFile(testOut, src, 0o644); err != nil {
		return nil, err
	}
	return []string{logOut, listOut, testOut}, nil
}

// packageName is the name the package at importPath declares, as the go
// command lists it in the module here; "" when it cannot say, and the name
// is then guessed from the path. A path's last element is not always the
// name: a module of major version 2 or more ends in /vN.
func packageName(importPath string) string {
	out, err := exec.Command("go", "list", "-e", "-f", "{{.Name}}", "--", importPath).Output()
	if err != nil {
		return ""
	}
	name := strings.TrimSpace(string(out))
	if !token.IsIdentifier(name) {
		return ""
	}
	return name
}
