package minimize

import (
	"bytes"
	"fmt"
	"go/format"
	"path"
	"sort"
	"strings"
	"text/template"
	"unicode"
)

// Repro describes the Go test file that replays a minimal log.
type Repro struct {
	Package  string   // the observed package the test file goes into (import path)
	Observed []string // the observed set the log was captured with
	Check    string   // check level
	Test     string   // test function name, TestRepro...
	Log      string   // the log's path relative to the package directory (slash-separated)
	Summary  string   // one line: what the log was reduced from, and the failure
	Listing  string   // the listing, quoted in the test's comment
}

// ReproPackage picks the observed package that the failing incall calls
// into: the test file belongs next to its code. site is the failing event's
// site or the failing incall's.
func ReproPackage(site string, observed []string) string {
	best := ""
	s := strings.TrimLeft(site, "(*")
	for _, p := range observed {
		if strings.HasPrefix(s, p+".") && len(p) > len(best) {
			best = p
		}
	}
	if best == "" && len(observed) > 0 {
		best = observed[0]
	}
	return best
}

// TestName makes TestRepro<Func> from a site: the function or method name,
// as a Go identifier.
func TestName(site string) string {
	name := site
	if i := strings.LastIndex(name, "."); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i] // a generic instantiation's type arguments
	}
	var b strings.Builder
	for _, r := range name {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
			b.WriteRune(r)
		}
	}
	n := b.String()
	if n == "" {
		return "TestRepro"
	}
	return "TestRepro" + strings.ToUpper(n[:1]) + n[1:]
}

// FileName is the test file's name: <package name>_repro_test.go.
func (r *Repro) FileName() string { return r.pkgName() + "_repro_test.go" }

func (r *Repro) pkgName() string {
	n := path.Base(r.Package)
	var b strings.Builder
	for _, c := range n {
		if unicode.IsLetter(c) || unicode.IsDigit(c) || c == '_' {
			b.WriteRune(c)
		}
	}
	if b.Len() == 0 {
		return "repro"
	}
	return b.String()
}

// The test replays through `capture replay`, which builds a harness of the
// package's code instrumented for replay: plain `go test` compiles the
// package uninstrumented, and only the transformed code has the probes the
// player drives and answers. The capture command is found in $CAPTURE or
// on PATH; without it the test fails and says how to get it, since a
// regression test that skips passes unseen.
var reproTemplate = template.Must(template.New("repro").Parse(`// Regression test written by capture minimize (docs/minimize.md): it replays
// a minimal event log of the observed set against this package's code.
// {{.Summary}}
// It fails while the bug is there and passes once it is fixed; keep it as
// the bug's regression test.
//
// Under Bazel, replay the same log with a go_replay_test:
//
//	go_replay_test(
//	    name = "{{.BazelName}}",
//	    observe = [...],  # the go_library targets of {{.ObservedList}}
//	    logs = ["{{.Log}}"],
//	    check = "{{.Check}}",
//	)

package {{.PkgName}}_test

import (
	"os"
	"os/exec"
	"testing"
)

// {{.Test}} replays {{.Log}}. The interaction it
// replays (seq in this log, seq in the log it was reduced from, the event;
// '=' what an incall returned, '->' the answer replay gives an outcall):
//
{{.Comment}}
func {{.Test}}(t *testing.T) {
	capture := os.Getenv("CAPTURE")
	if capture == "" {
		capture = "capture"
	}
	bin, err := exec.LookPath(capture)
	if err != nil {
		t.Fatalf("this test replays {{.Log}} with the capture command, which is not installed: go install github.com/rules-capture/rules_capture/tool/cmd/capture@latest, or set $CAPTURE to its path (%v)", err)
	}
	cmd := exec.Command(bin, "replay", "-observe", {{printf "%q" .ObservedFlag}}, "-check", {{printf "%q" .Check}}, {{printf "%q" .Log}})
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("capture replay of {{.Log}}: %v\n%s", err, out)
	}
}
`))

// Source returns the gofmt-clean test file.
func (r *Repro) Source() ([]byte, error) {
	var comment strings.Builder
	lines := strings.Split(strings.TrimRight(r.Listing, "\n"), "\n")
	const maxLines = 80
	for i, l := range lines {
		if i == maxLines {
			fmt.Fprintf(&comment, "//\t... %d more lines: see the listing written next to the log\n", len(lines)-maxLines)
			break
		}
		comment.WriteString("//\t" + strings.ReplaceAll(l, "*/", "* /") + "\n")
	}
	obs := append([]string(nil), r.Observed...)
	sort.Strings(obs)
	var b bytes.Buffer
	err := reproTemplate.Execute(&b, map[string]any{
		"Summary":      r.Summary,
		"BazelName":    snake(strings.TrimPrefix(r.Test, "Test")),
		"ObservedList": strings.Join(obs, ", "),
		"ObservedFlag": strings.Join(obs, ","),
		"Log":          r.Log,
		"Check":        r.Check,
		"PkgName":      r.pkgName(),
		"Test":         r.Test,
		"Comment":      strings.TrimRight(comment.String(), "\n"),
	})
	if err != nil {
		return nil, err
	}
	return format.Source(b.Bytes())
}

// snake spells a Go identifier as a Bazel target name: ReproReserve ->
// repro_reserve.
func snake(s string) string {
	var b strings.Builder
	for i, c := range s {
		if unicode.IsUpper(c) {
			if i > 0 {
				b.WriteByte('_')
			}
			c = unicode.ToLower(c)
		}
		b.WriteRune(c)
	}
	return b.String()
}
