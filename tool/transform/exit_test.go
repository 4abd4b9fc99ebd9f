package transform

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// TestInstrumentExit: os.Exit calls become the probe's Exit and main closes
// the log, on the lines they were on; a file whose only use of os was
// os.Exit keeps os imported for its initialisation only, under the blank
// name, so that it still compiles (else: "os" imported and not used; corpus
// firstfield), also when os was imported under another name; a file that uses os
// otherwise keeps its import as it was.
func TestInstrumentExit(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string // substrings of the output
		not       []string
	}{
		{"only exit", "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tfmt.Println()\n\tos.Exit(1)\n}\n",
			[]string{"\t_ \"os\"\n", "capture_probe.Exit(1)", "func main() { defer capture_probe.Close();"}, []string{"os.Exit"}},
		{"renamed", "package main\n\nimport sys \"os\"\n\nfunc main() { sys.Exit(2) }\n",
			[]string{"import _ \"os\"", "capture_probe.Exit(2)"}, []string{"sys"}},
		{"other uses", "package main\n\nimport \"os\"\n\nfunc main() {\n\tif len(os.Args) > 1 {\n\t\tos.Exit(1)\n\t}\n}\n",
			[]string{"import \"os\"", "os.Args", "capture_probe.Exit(1)"}, []string{"_ \"os\""}},
		{"no exit", "package main\n\nimport \"os\"\n\nfunc main() { _ = os.Args }\n",
			[]string{"import \"os\"", "defer capture_probe.Close()"}, []string{"_ \"os\""}},
	}
	for _, c := range cases {
		out, changed, err := InstrumentExit("main.go", []byte(c.src), "main")
		if err != nil || !changed {
			t.Fatalf("%s: changed %v, %v", c.name, changed, err)
		}
		got := string(out)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: output lacks %q:\n%s", c.name, w, got)
			}
		}
		for _, n := range c.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: output has %q:\n%s", c.name, n, got)
			}
		}
		if strings.Count(got, "\n") != strings.Count(c.src, "\n") {
			t.Errorf("%s: lines moved:\n%s", c.name, got)
		}
		if _, err := parser.ParseFile(token.NewFileSet(), "main.go", out, 0); err != nil {
			t.Errorf("%s: output does not parse: %v\n%s", c.name, err, got)
		}
	}
}
