package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rules-capture/rules_capture/tool/internal/load"
	"github.com/rules-capture/rules_capture/tool/transform"
)

func init() {
	register("transform", command{"write the instrumented source of observed packages", runTransform})
}

// runTransform instruments packages of the module in the current directory
// and writes the result to a directory: what the build's overlay holds, for
// reading and for build systems that compile the output themselves.
func runTransform(args []string) int {
	fs := flag.NewFlagSet("capture transform", flag.ContinueOnError)
	observe := fs.String("observe", "", "comma-separated import paths of the whole observed set (default: the packages given)")
	out := fs.String("o", "", "output directory (required): one subdirectory per package")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: capture transform [-observe PKG[,PKG]] -o DIR PKG...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *out == "" || fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	obs := splitComma(*observe)
	if len(obs) == 0 {
		obs = fs.Args()
	}
	all, _, err := load.List(".", os.Environ(), nil, fs.Args()...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "capture transform:", err)
		return 1
	}
	status := 0
	for _, path := range fs.Args() {
		lp, ok := all[path]
		if !ok {
			fmt.Fprintf(os.Stderr, "capture transform: %s: not found (give import paths)\n", path)
			status = 1
			continue
		}
		pkg, err := load.Check(lp, all)
		if err != nil {
			fmt.Fprintln(os.Stderr, "capture transform:", err)
			status = 1
			continue
		}
		res, err := transform.Instrument(pkg, transform.Options{Observed: obs})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			status = 1
			continue
		}
		if _, err := load.WriteOutput(filepath.Join(*out, filepath.FromSlash(path)), lp.GoFiles, transform.GeneratedFile, res); err != nil {
			fmt.Fprintln(os.Stderr, "capture transform:", err)
			return 1
		}
	}
	return status
}

func splitComma(v string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(v); i++ {
		if i == len(v) || v[i] == ',' {
			if i > start {
				out = append(out, v[start:i])
			}
			start = i + 1
		}
	}
	return out
}
