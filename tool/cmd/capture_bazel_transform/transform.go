package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/rules-capture/rules_capture/tool/internal/load"
	"github.com/rules-capture/rules_capture/tool/transform"
)

// transformPackage instruments the package of the compiled sources with the
// core transform library and writes each instrumented file, plus the
// generated file, to the output directory. The files keep the
// exec-root-relative paths they are given by: with rules_go's -trimpath
// that is what the compiler and stack traces show for an uninstrumented
// file too, and the //line directives name them.
func transformPackage(r *request, compiled []string) error {
	in := load.Inputs{ImportPath: r.importPath, Files: compiled, GOARCH: r.ctxt.GOARCH,
		ExportData: func(path string) (io.ReadCloser, error) { return openExportData(r, path) }}
	for _, src := range r.testSrcs {
		if ok, err := r.ctxt.MatchFile(filepath.Dir(src), filepath.Base(src)); err == nil && ok {
			in.TestFiles = append(in.TestFiles, src)
		}
	}
	p, err := in.Check()
	if err != nil {
		return err
	}
	out, err := transform.Instrument(p, transform.Options{Observed: r.observed})
	if err != nil {
		return fmt.Errorf("instrumenting %s:\n%v", r.importPath, err)
	}
	_, err = load.WriteOutput(r.outDir, compiled, r.genFile, out)
	return err
}
