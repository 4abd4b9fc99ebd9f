package main

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"

	"github.com/rules-capture/rules_capture/tool/transform"
)

// instrumentExit handles the main package of a capture binary, which is not
// observed: `defer probe.Close()` at the top of main and os.Exit routed
// through probe.Exit, so the log is complete when the program ends. Files of
// another package name are copied unchanged. Each output starts with a //line
// directive naming its source, as the compiler would have seen it.
func instrumentExit(r *request, srcs []string) error {
	for _, name := range srcs {
		src, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.PackageClauseOnly)
		if err != nil {
			return err
		}
		out := src
		if f.Name.Name == "main" {
			if out, _, err = transform.InstrumentExit(name, src, "main"); err != nil {
				return fmt.Errorf("%s: %v", name, err)
			}
		}
		out = append([]byte(fmt.Sprintf("//line %s:1\n", name)), out...)
		if err := os.WriteFile(filepath.Join(r.outDir, filepath.Base(name)), out, 0o644); err != nil {
			return err
		}
	}
	return nil
}
