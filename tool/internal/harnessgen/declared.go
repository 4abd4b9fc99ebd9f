package harnessgen

import (
	"bytes"
	"fmt"
	"go/format"
	"go/token"
	"sort"

	"github.com/rules-capture/rules_capture/tool/transform"
)

// Declared writes a file of the harness's package that tells replay where
// the types it cannot link are declared (probe.DeclaredWhere), by the names
// a log gives them: where maps a type's log name ("example.com/a.table",
// or the package-name form "a.table" that type literals use) to where it is
// declared ("inside a function (a_test.go:12)"). A log whose incall hands
// observed code a reflected value of such a type cannot be replayed, and
// replay's note then says why in these words. Without any entry the file
// only declares the package.
func Declared(pkg string, where map[string]string) ([]byte, error) {
	if !token.IsIdentifier(pkg) {
		return nil, fmt.Errorf("replay harness: package name %q is not a Go identifier", pkg)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\n\npackage %s\n", transform.InstancesHeader, pkg)
	if len(where) > 0 {
		names := make([]string, 0, len(where))
		for n := range where {
			names = append(names, n)
		}
		sort.Strings(names)
		fmt.Fprintf(&b, "\nimport probe %q\n\n// Where the types replay cannot link are declared, for its notes.\nvar (\n", transform.ProbeImport)
		for _, n := range names {
			fmt.Fprintf(&b, "\t_ = probe.DeclaredWhere(%q, %q)\n", n, where[n])
		}
		b.WriteString(")\n")
	}
	out, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("replay harness: declarations file is not Go: %v", err)
	}
	return out, nil
}
