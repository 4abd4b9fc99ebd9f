package gazelle_ext

import (
	"fmt"
	"go/parser"
	"go/token"
	"strings"

	"golang.org/x/mod/module"
)

// observeAnnotation is the comment prefix that names the observed set in the Go
// source of a main package. Like //go: directives it has no space after the
// slashes, so ordinary prose that mentions it is not an annotation.
const observeAnnotation = "//capture:observe"

// Annotation is one //capture:observe line of a Go file.
type Annotation struct {
	Pos     token.Position
	Imports []string
}

// sourceFile is what parseAnnotations learned from one Go file.
type sourceFile struct {
	Package     string
	Annotations []Annotation
}

// parseAnnotations reads the package name and the //capture:observe annotations of
// one Go file. Any line comment of the file counts, wherever it is: a file header,
// the package doc comment or next to the code. Errors name the file and line and
// say how to write the annotation.
func parseAnnotations(filename string, src []byte) (sourceFile, []error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, src, parser.ParseComments|parser.SkipObjectResolution)
	if f == nil || f.Name == nil || f.Name.Name == "" || f.Name.Name == "_" {
		return sourceFile{}, []error{err}
	}
	// A syntax error later in the file does not hide annotations the parser has
	// already seen (Gazelle's Go extension reports syntax errors itself).
	out := sourceFile{Package: f.Name.Name}
	var errs []error
	for _, group := range f.Comments {
		for _, c := range group.List {
			rest, ok := strings.CutPrefix(c.Text, observeAnnotation)
			if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
				continue
			}
			pos := fset.Position(c.Slash)
			imports, err := parseAnnotationImports(rest)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %v", pos, err))
				continue
			}
			out.Annotations = append(out.Annotations, Annotation{Pos: pos, Imports: imports})
		}
	}
	return out, errs
}

func parseAnnotationImports(rest string) ([]string, error) {
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return nil, fmt.Errorf("%s names no package; write the import paths of the observed packages after it, e.g. %s example.com/app/pricing", observeAnnotation, observeAnnotation)
	}
	for _, p := range fields {
		if err := module.CheckImportPath(p); err != nil {
			return nil, fmt.Errorf("%s: %q is not a Go import path (%v); write import paths such as example.com/app/pricing, separated by spaces", observeAnnotation, p, err)
		}
	}
	return fields, nil
}

// mergeImports appends the import paths of all annotations, in source order,
// without duplicates.
func mergeImports(annotations []Annotation) []string {
	var out []string
	seen := map[string]bool{}
	for _, a := range annotations {
		for _, p := range a.Imports {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}
