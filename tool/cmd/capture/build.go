package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rules-capture/rules_capture/tool/internal/frontend"
)

func init() {
	register("build", command{"build a capture variant of a main package", runBuild})
}

func runBuild(args []string) int {
	fs := flag.NewFlagSet("capture build", flag.ContinueOnError)
	observe := fs.String("observe", "", "comma-separated import paths of the observed packages (required)")
	out := fs.String("o", "", "output binary (required)")
	root := fs.String("root", "", "rules_capture's source tree (default: $"+frontend.EnvRoot+" or where capture was built from)")
	verbose := fs.Bool("v", false, "print the go commands")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: capture build -observe PKG[,PKG] -o OUT [package]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	obs := frontend.SplitList(*observe)
	if len(obs) == 0 || *out == "" || fs.NArg() > 1 {
		fs.Usage()
		return 2
	}
	pattern := "."
	if fs.NArg() == 1 {
		pattern = fs.Arg(0)
	}
	rootDir, err := frontend.FindRoot(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "capture build:", err)
		return 2
	}
	outPath, err := filepath.Abs(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "capture build:", err)
		return 2
	}
	s, err := frontend.NewSession(".", obs, rootDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "capture build:", err)
		return 1
	}
	defer s.Close()
	s.Verbose = *verbose
	pkgs, err := s.Instrument(false, pattern)
	if err != nil {
		fmt.Fprintln(os.Stderr, "capture build:", err)
		return 1
	}
	var mainPkg = pkgs[0]
	for _, p := range pkgs {
		if p.Name == "main" {
			mainPkg = p
		}
	}
	if mainPkg.Name != "main" {
		fmt.Fprintf(os.Stderr, "capture build: %s is not a main package\n", pattern)
		return 2
	}
	if _, err := s.InstrumentExit(mainPkg, mainPkg.GoFiles, "main"); err != nil {
		fmt.Fprintln(os.Stderr, "capture build:", err)
		return 1
	}
	if err := s.Go("build", "-ldflags="+s.LDFlags(false), "-o", outPath, pattern); err != nil {
		fmt.Fprintln(os.Stderr, "capture build:", err)
		return 1
	}
	return 0
}
