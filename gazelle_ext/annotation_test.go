package gazelle_ext

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseAnnotations(t *testing.T) {
	for _, tc := range []struct {
		name     string
		src      string
		wantPkg  string
		wantImps [][]string // per annotation
		wantLine []int
		wantErr  []string
	}{{
		name:    "no annotation",
		src:     "// Command x.\npackage main\n\nfunc main() {}\n",
		wantPkg: "main",
	}, {
		name:     "in the package doc comment, several paths",
		src:      "// Command x.\n//\n//capture:observe example.com/a example.com/b\npackage main\n",
		wantPkg:  "main",
		wantImps: [][]string{{"example.com/a", "example.com/b"}},
		wantLine: []int{3},
	}, {
		name:     "several lines anywhere in the file, tabs as separators",
		src:      "package main\n\n//capture:observe example.com/a\nimport \"fmt\"\n\nfunc main() {\n\t//capture:observe\texample.com/c  example.com/a \n\tfmt.Println()\n}\n",
		wantPkg:  "main",
		wantImps: [][]string{{"example.com/a"}, {"example.com/c", "example.com/a"}},
		wantLine: []int{3, 7},
	}, {
		name:    "look-alikes are not annotations",
		src:     "package main\n\n// capture:observe example.com/spaced\n//capture:observer example.com/x\n/*capture:observe example.com/block*/\nvar s = \"//capture:observe example.com/string\"\n",
		wantPkg: "main",
	}, {
		name:    "no import path",
		src:     "package main\n\n//capture:observe   \n",
		wantPkg: "main",
		wantErr: []string{"x.go:3:1: //capture:observe names no package; write the import paths"},
	}, {
		name:     "an invalid path rejects its line only",
		src:      "package main\n\n//capture:observe example.com/ok ../rel\n//capture:observe example.com/b\n",
		wantPkg:  "main",
		wantImps: [][]string{{"example.com/b"}},
		wantLine: []int{4},
		wantErr:  []string{`x.go:3:1: //capture:observe: "../rel" is not a Go import path`},
	}, {
		name:     "other packages report their name",
		src:      "package store\n\n//capture:observe example.com/a\n",
		wantPkg:  "store",
		wantImps: [][]string{{"example.com/a"}},
		wantLine: []int{3},
	}, {
		name:     "a syntax error after the annotation keeps it",
		src:      "package main\n\n//capture:observe example.com/a\nfunc main() {\n",
		wantPkg:  "main",
		wantImps: [][]string{{"example.com/a"}},
		wantLine: []int{3},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			sf, errs := parseAnnotations("x.go", []byte(tc.src))
			if sf.Package != tc.wantPkg {
				t.Errorf("package = %q, want %q", sf.Package, tc.wantPkg)
			}
			var imps [][]string
			var lines []int
			for _, a := range sf.Annotations {
				imps = append(imps, a.Imports)
				lines = append(lines, a.Pos.Line)
			}
			if !reflect.DeepEqual(imps, tc.wantImps) || !reflect.DeepEqual(lines, tc.wantLine) {
				t.Errorf("annotations = %q at lines %v, want %q at lines %v", imps, lines, tc.wantImps, tc.wantLine)
			}
			if len(errs) != len(tc.wantErr) {
				t.Fatalf("errors = %v, want %d errors containing %q", errs, len(tc.wantErr), tc.wantErr)
			}
			for i, err := range errs {
				if !strings.Contains(err.Error(), tc.wantErr[i]) {
					t.Errorf("error %d = %q, want it to contain %q", i, err, tc.wantErr[i])
				}
			}
		})
	}
}

func TestParseAnnotationsUnparsable(t *testing.T) {
	sf, errs := parseAnnotations("x.go", []byte("not go at all"))
	if len(errs) != 1 || len(sf.Annotations) != 0 {
		t.Errorf("got %+v, %v; want no annotations and one error", sf, errs)
	}
}

func TestMergeImports(t *testing.T) {
	got := mergeImports([]Annotation{
		{Imports: []string{"example.com/b", "example.com/a"}},
		{Imports: []string{"example.com/a", "example.com/c"}},
	})
	want := []string{"example.com/b", "example.com/a", "example.com/c"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("mergeImports = %q, want %q", got, want)
	}
}
