package minimize

import (
	"bytes"
	"fmt"
	"go/format"
	"path"
	"regexp"
	"sort"
	"strings"
	"text/template"
	"unicode"
)

// Repro describes the Go test file that replays a minimal log.
type Repro struct {
	Package string // the observed package the test file goes into (import path)
	// Name is that package's name, as its package clause declares it; ""
	// guesses it from the import path (see PackageName).
	Name     string
	Observed []string // the observed set the log was captured with
	Check    string   // check level
	Test     string   // test function name, TestRepro...
	Log      string   // the log's path relative to the package directory (slash-separated)
	Summary  string   // one line: what the log was reduced from, and the failure
	Listing  string   // the listing, quoted in the test's comment

	// Panic: the failure is a panic the log records, which the test
	// expects the fixed code not to make (see PanicRepro).
	Panic *PanicRepro
}

// PanicRepro describes the recorded panic of a minimal log: its replay
// passes while the code still panics as recorded, so the test inverts the
// verdict. It fails on a passing replay, and passes on a divergence in
// the incall that panicked (events From to To of the minimal log): the
// fixed code does something else there, which is what the fix is for. A
// divergence before that incall means the calls that set the panic up
// behave differently now, and the log no longer tests the panic: that
// fails too, and says so.
type PanicRepro struct {
	Value    string // the panic value, rendered
	Site     string // the function that raised it
	Pos      string // where, as recorded
	From, To uint64 // seqs of the incall that panicked in the minimal log: its CALL_IN, its PANIC_OUT
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
	if r.Name != "" {
		return r.Name
	}
	return PackageName(r.Package)
}

// PackageName guesses a package's name from its import path, as a reader
// of the path would: the last element, except that a major-version suffix
// ("github.com/Masterminds/semver/v3", whose package is semver) gives way
// to the element before it, and a "go-" prefix, a "-go" or ".go" suffix
// and a gopkg.in version (".v3" in "gopkg.in/yaml.v3") are dropped; what is left is cut to the letters, digits and underscores
// an identifier may hold. The package clause is the authority: callers
// that can list the package pass its name in Repro.Name.
func PackageName(importPath string) string {
	n := path.Base(importPath)
	if dir := path.Dir(importPath); majorSuffix.MatchString(n) && dir != "." && dir != "/" {
		n = path.Base(dir)
	}
	n = gopkgVersion.ReplaceAllString(strings.TrimPrefix(n, "go-"), "")
	n = strings.TrimSuffix(strings.TrimSuffix(n, "-go"), ".go")
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

// majorSuffix matches the last element of a module path of major version
// 2 or more.
var majorSuffix = regexp.MustCompile(`^v[2-9][0-9]*$|^v[1-9][0-9]+$`)

// gopkgVersion matches the version that ends a gopkg.in path's last element.
var gopkgVersion = regexp.MustCompile(`\.v[0-9]+$`)

// findCapture opens both tests: it finds the capture command (see below).
const findCapture = `{{define "findCapture"}}	capture := os.Getenv("CAPTURE")
	if capture == "" {
		capture = "capture"
	}
	bin, err := exec.LookPath(capture)
	if err != nil {
		t.Fatalf("this test replays {{.Log}} with the capture command, which is not installed: go install github.com/rules-capture/rules_capture/tool/cmd/capture@latest, or set $CAPTURE to its path (%v)", err)
	}
{{end}}`

// The test replays through `capture replay`, which builds a harness of the
// package's code instrumented for replay: plain `go test` compiles the
// package uninstrumented, and only the transformed code has the probes the
// player drives and answers. The capture command is found in $CAPTURE or
// on PATH; without it the test fails and says how to get it, since a
// regression test that skips passes unseen.
var reproTemplate = template.Must(template.New("repro").Parse(findCapture + `// Regression test written by capture minimize (docs/minimize.md): it replays
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
{{template "findCapture" .}}	cmd := exec.Command(bin, "replay", "-observe", {{printf "%q" .ObservedFlag}}, "-check", {{printf "%q" .Check}}, {{printf "%q" .Log}})
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("capture replay of {{.Log}}: %v\n%s", err, out)
	}
}
`))

var panicTemplate = template.Must(template.New("repro").Parse(findCapture + `// Regression test written by capture minimize (docs/minimize.md): it replays
// a minimal event log of the observed set against this package's code.
// {{.Summary}}
// The log records a panic of this package's code. The test fails while the
// code still panics there (the replay passes through the recorded panic)
// and passes once it no longer does; keep it as the bug's regression test.
//
// Under Bazel a go_replay_test of this log passes while the bug is there:
// use this test, or a go_replay_test of a log captured after the fix.

package {{.PkgName}}_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// {{.Test}} replays {{.Log}}, in which
// {{.PanicSite}} panicked with {{.PanicValue}}
// (at {{.PanicPos}}). The interaction it replays (seq in this log, seq in
// the log it was reduced from, the event; '=' what an incall returned,
// '->' the answer replay gives an outcall):
//
{{.Comment}}
func {{.Test}}(t *testing.T) {
{{template "findCapture" .}}	const log = {{printf "%q" .Log}}
	// The incall that panicked: its CALL_IN and its PANIC_OUT in the log.
	const from, to = {{.From}}, {{.To}}
	reports := t.TempDir()
	cmd := exec.Command(bin, "replay", "-observe", {{printf "%q" .ObservedFlag}}, "-check", {{printf "%q" .Check}}, "-reports", reports, log)
	out, _ := cmd.CombinedOutput()
	b, err := os.ReadFile(filepath.Join(reports, filepath.Base(log)+".json"))
	var rep struct {
		Verdict    string
		Divergence *struct {
			Seq                      uint64
			Reason, Expected, Actual string
		}
	}
	if err == nil {
		err = json.Unmarshal(b, &rep)
	}
	if err != nil {
		t.Fatalf("capture replay of %s left no report (%v):\n%s", log, err, out)
	}
	d := rep.Divergence
	switch {
	case rep.Verdict == "pass":
		t.Fatalf("the code still panics as the log records: %s in %s (at %s); the replay of %s passes through that panic. Once the bug is fixed, the replay diverges in the call that panicked (seq %d to %d) and this test passes",
			{{printf "%q" .PanicValue}}, {{printf "%q" .PanicSite}}, {{printf "%q" .PanicPos}}, log, from, to)
	case d != nil && d.Seq >= from && d.Seq <= to:
		t.Logf("fixed: the code no longer panics as recorded; the replay diverges, as intended, in the call that panicked (seq %d: %s)\n  the log:  %s\n  the code: %s", d.Seq, d.Reason, d.Expected, d.Actual)
	default:
		t.Fatalf("the replay of %s does not reach the call that panicked (seq %d to %d): the calls that set the panic up behave differently now, so this log no longer tests it; capture and minimize a new one\n%s", log, from, to, out)
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
	tmpl := reproTemplate
	data := map[string]any{
		"Summary":      r.Summary,
		"BazelName":    snake(strings.TrimPrefix(r.Test, "Test")),
		"ObservedList": strings.Join(obs, ", "),
		"ObservedFlag": strings.Join(obs, ","),
		"Log":          r.Log,
		"Check":        r.Check,
		"PkgName":      r.pkgName(),
		"Test":         r.Test,
		"Comment":      strings.TrimRight(comment.String(), "\n"),
	}
	if p := r.Panic; p != nil {
		tmpl = panicTemplate
		data["PanicValue"], data["PanicSite"], data["PanicPos"] = p.Value, p.Site, p.Pos
		data["From"], data["To"] = p.From, p.To
	}
	err := tmpl.Execute(&b, data)
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
