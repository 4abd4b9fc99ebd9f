package main

import (
	"os"
	"path/filepath"

	"github.com/rules-capture/rules_capture/tool/transform"
)

// transformPackage instruments p with the core transform library and writes
// each instrumented file, plus the generated file, to the output directory.
func transformPackage(r *request, p *checkedPackage) error {
	srcs := make([][]byte, len(p.names))
	for i, name := range p.names {
		b, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		srcs[i] = b
	}
	out, err := transform.Instrument(&transform.Package{
		Fset:    p.fset,
		Files:   p.files,
		Sources: srcs,
		Types:   p.pkg,
		Info:    p.info,
		// The exec-root-relative path: with rules_go's -trimpath it is what
		// the compiler and stack traces show for an uninstrumented file too.
		DisplayNames: p.names,
	}, transform.Options{Observed: r.observed})
	if err != nil {
		return err
	}
	for i, name := range p.names {
		if err := os.WriteFile(filepath.Join(r.outDir, filepath.Base(name)), out.Files[i], 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(r.outDir, transform.GeneratedFile), out.Gen, 0o644)
}
