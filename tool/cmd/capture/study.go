package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rules-capture/rules_capture/lab/study"
	"github.com/rules-capture/rules_capture/tool/internal/frontend"
)

func init() {
	register("study", command{"conformance study: capture and replay the tests of real modules, per observed package", runStudy})
}

func runStudy(args []string) int {
	fs := flag.NewFlagSet("capture study", flag.ContinueOnError)
	quick := fs.Bool("quick", false, "a small slice for the test command: semver's root package, 3 repeats, 1 mutant, no random sets")
	out := fs.String("o", "", "write study.json and study.md to this directory (default: print the Markdown only)")
	work := fs.String("work", "", "scratch directory (default: a temporary directory, removed afterwards)")
	root := fs.String("root", "", "rules_capture's source tree (default: $"+frontend.EnvRoot+" or where capture was built from)")
	repeats := fs.Int("repeats", 5, "timing repeats per test for the capture overhead (0: skip)")
	mutants := fs.Int("mutants", 5, "generated mutants per observed package (0: skip the mutation check)")
	sets := fs.Int("sets", 5, "random observed sets of 2-3 packages per module")
	seed := fs.Int64("seed", 1, "seed for the random sets and the mutants")
	packages := fs.String("packages", "", "comma-separated import paths: observe only these packages")
	maxPackages := fs.Int("max-packages", 0, "observe at most this many single packages per module (0: all)")
	onlySets := fs.String("only-sets", "", "comma-separated numbers N (as the progress lines number them: observed set N/M): study only these of the observed sets the other flags give, to re-run a few sets of a run")
	timeout := fs.Duration("timeout", 10*time.Minute, "limit for each command the study runs (capture test: plus every test's limit)")
	testLimit := fs.Duration("test-limit", study.DefaultTestLimit, "least limit on each test under capture; a test past its limit is killed and reported as timed out (no round trip)")
	testFactor := fs.Float64("test-limit-factor", study.DefaultTestLimitFactor, "a test's limit under capture is at least this many times its time without capture")
	maxLog := fs.String("max-log-bytes", study.DefaultMaxLogBytes, "capture test's cap on each log (0: none; $CAPTURE_MAX_BYTES, if set, wins): a capped log is reported as capped, not replayed")
	verbose := fs.Bool("v", false, "print every command")
	corpus := fs.String("corpus", "", `with no module named: "wide" studies the wide corpus (popular modules nobody here wrote, pinned versions) instead of the default one`)
	chunk := fs.String("chunk", "", "K/N: study only the K-th of N equal chunks of the modules (with -results, to study a corpus over several runs)")
	results := fs.String("results", "", "study each module on its own into DIR/<module name>/study.json and study.md, skipping modules DIR holds a finished study of (-force: study them again) and continuing one a run left unfinished with the observed sets it has not studied (same flags and capture commit required); each observed set's scratch files are removed when the set is done, and the module's when it is")
	force := fs.Bool("force", false, "with -results: study again modules that have a result")
	table := fs.String("table", "", "study nothing: print the one table of the per-module results in DIR (written with -results), with the corpus's modules not yet studied")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, `usage: capture study [flags] [go-cmp | semver | examples | toml | pflag | uuid | module@version | dir]...

With no module, studies the default corpus: github.com/google/go-cmp,
github.com/Masterminds/semver/v3, this repository's examples/,
github.com/BurntSushi/toml, github.com/spf13/pflag and github.com/google/uuid. Modules
are fetched through the Go module proxy (go mod download) and studied in a
copy. Exits 1 if any round trip failed or any tool error occurred.

-corpus wide studies instead the wide corpus: popular modules nobody here
wrote, pinned to versions (`+strconv.Itoa(len(study.WideCorpus()))+` now). Over several runs:

  capture study -corpus wide -chunk K/N -results DIR [flags]   (K = 1..N)
  capture study -corpus wide -table DIR

studies the K-th of N chunks, one module at a time into DIR (a module
studied already is skipped), then prints the one table of all of them.

One module's observed sets can be studied over several runs too: a run
with -results DIR that is stopped (or killed) leaves DIR/<module> holding
the sets it finished, and the same command again continues with the sets
not yet studied, until study.json says finished. It refuses when the
flags or the capture (its commit: build it from a clean checkout) differ
from the run that left the study unfinished; -force studies it afresh.`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	var wide bool
	switch *corpus {
	case "", "default":
	case "wide":
		wide = true
	default:
		fmt.Fprintf(os.Stderr, "capture study: -corpus %q: want default or wide\n", *corpus)
		return 2
	}
	if *table != "" {
		want := study.WideCorpus()
		if !wide {
			want = nil
		}
		if err := study.Table(os.Stdout, *table, want); err != nil {
			fmt.Fprintln(os.Stderr, "capture study:", err)
			return 1
		}
		return 0
	}
	rootDir, err := frontend.FindRoot(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "capture study:", err)
		return 2
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "capture study: cannot find the capture command itself:", err)
		return 2
	}
	var only []int
	for _, n := range frontend.SplitList(*onlySets) {
		i, err := strconv.Atoi(n)
		if err != nil || i < 1 {
			fmt.Fprintf(os.Stderr, "capture study: -only-sets: %q is not a set number (1, 2, ...)\n", n)
			return 2
		}
		only = append(only, i)
	}
	var subjects []study.Subject
	for _, a := range fs.Args() {
		if sub, ok := study.CorpusSubject(rootDir, a); ok {
			subjects = append(subjects, sub)
			continue
		}
		sub, err := study.ParseSubject(a)
		if err != nil {
			fmt.Fprintln(os.Stderr, "capture study:", err)
			return 2
		}
		subjects = append(subjects, sub)
	}
	cfg := study.Config{
		Capture: self, Root: rootDir, Repeats: *repeats, Mutants: *mutants, Sets: *sets, Seed: *seed,
		Packages: frontend.SplitList(*packages), MaxPackages: *maxPackages, OnlySets: only, Timeout: *timeout, TestLimit: *testLimit, TestLimitFactor: *testFactor, MaxLogBytes: *maxLog, Verbose: *verbose, Log: os.Stderr,
	}
	if *quick {
		if len(subjects) == 0 {
			semver, _ := study.CorpusSubject(rootDir, "semver")
			subjects = []study.Subject{semver}
		}
		cfg.Repeats, cfg.Mutants, cfg.Sets, cfg.MaxPackages = 3, 1, 0, 1
	}
	if len(subjects) == 0 {
		subjects = study.Corpus(rootDir)
		if wide {
			subjects = study.WideCorpus()
		}
	}
	if *chunk != "" {
		k, n, err := study.ParseChunk(*chunk)
		if err != nil {
			fmt.Fprintln(os.Stderr, "capture study: -chunk:", err)
			return 2
		}
		subjects = study.Chunk(subjects, k, n)
	}
	cfg.Out = *out
	cfg.Work = *work
	if cfg.Work == "" {
		dir, err := os.MkdirTemp("", "capture-study-")
		if err != nil {
			fmt.Fprintln(os.Stderr, "capture study:", err)
			return 1
		}
		defer os.RemoveAll(dir)
		cfg.Work = dir
	} else if cfg.Work, err = filepath.Abs(cfg.Work); err != nil {
		fmt.Fprintln(os.Stderr, "capture study:", err)
		return 2
	}
	if *results != "" {
		if *out != "" {
			fmt.Fprintln(os.Stderr, "capture study: -results writes one report per module; -o is for one report of all")
			return 2
		}
		dir, err := filepath.Abs(*results)
		if err != nil {
			fmt.Fprintln(os.Stderr, "capture study:", err)
			return 2
		}
		done, err := study.RunEach(cfg, subjects, dir, *force)
		if err != nil {
			fmt.Fprintln(os.Stderr, "capture study:", err)
			return 1
		}
		fmt.Printf("studied %d modules into %s: %s\n", len(done), dir, strings.Join(done, " "))
		return 0
	}
	rep, err := study.Run(cfg, subjects)
	if err != nil {
		fmt.Fprintln(os.Stderr, "capture study:", err)
		return 1
	}
	rep.Markdown(os.Stdout)
	if !rep.Clean() {
		return 1
	}
	return 0
}
