package transform

import (
	"go/version"
)

// The instrumented files keep their package's language version (the go
// line of its module, or a file's own //go:build goX.Y line), because that
// version sets the program's semantics (per-iteration loop variables came
// with go1.22). What the transform inserts into them must compile at that
// version; what it generates into its own file does not have to.

// genLang is the language version the generated file's code is written
// for: it uses type parameters (go1.18) and ranges over functions (go1.23).
// A package of an older version gets a //go:build line that raises the
// generated file alone to it (a file's go version line may raise it above
// the module's since go1.21).
const genLang = "go1.23"

// fileLang is the language version of the file being walked ("" when the
// package was checked without one: the newest, as the tool's own Go).
func (t *transformer) fileLang() string {
	if t.p.Info.FileVersions == nil {
		return ""
	}
	return t.p.Info.FileVersions[t.p.Files[t.file]]
}

// langBefore reports whether the file being walked has a language version
// older than v (a known one: files checked without a version are taken to
// be of the newest).
func (t *transformer) langBefore(v string) bool {
	fv := t.fileLang()
	return version.IsValid(fv) && version.Compare(fv, v) < 0
}

// oldestLang is the oldest language version among the package's files (""
// when none is known).
func (t *transformer) oldestLang() string {
	oldest := ""
	for _, f := range t.p.Files {
		fv := t.p.Info.FileVersions[f]
		if version.IsValid(fv) && (oldest == "" || version.Compare(fv, oldest) < 0) {
			oldest = fv
		}
	}
	return oldest
}
