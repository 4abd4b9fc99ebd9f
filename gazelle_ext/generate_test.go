package gazelle_ext

import (
	"bytes"
	"flag"
	"log"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/label"
	"github.com/bazelbuild/bazel-gazelle/language"
	golang "github.com/bazelbuild/bazel-gazelle/language/go"
	"github.com/bazelbuild/bazel-gazelle/resolve"
	"github.com/bazelbuild/bazel-gazelle/rule"
	bzl "github.com/bazelbuild/buildtools/build"
)

// captureLog collects what the extension logs during a test.
func captureLog(t *testing.T) *bytes.Buffer {
	var buf bytes.Buffer
	out, flags := log.Writer(), log.Flags()
	log.SetOutput(&buf)
	log.SetFlags(0)
	t.Cleanup(func() { log.SetOutput(out); log.SetFlags(flags) })
	return &buf
}

// workspace sets up Gazelle's configuration the way `gazelle update` does for a
// repository root holding the given files, with the Go language and this one.
func workspace(t *testing.T, files map[string]string, rootBuild string) (*config.Config, *captureLang, language.Language) {
	t.Helper()
	dir := t.TempDir()
	files["WORKSPACE"] = ""
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	goLang := golang.NewLanguage()
	lang := NewLanguage().(*captureLang)
	cexts := []config.Configurer{&config.CommonConfigurer{}, &resolve.Configurer{}, goLang, lang}
	c := config.New()
	fs := flag.NewFlagSet("gazelle", flag.ContinueOnError)
	for _, cx := range cexts {
		cx.RegisterFlags(fs, "update", c)
	}
	if err := fs.Parse([]string{"-repo_root", dir, "-go_prefix", "example.com/app"}); err != nil {
		t.Fatal(err)
	}
	for _, cx := range cexts {
		if err := cx.CheckFlags(fs, c); err != nil {
			t.Fatal(err)
		}
	}
	f, err := rule.LoadData(filepath.Join(dir, "BUILD.bazel"), "", []byte(rootBuild))
	if err != nil {
		t.Fatal(err)
	}
	for _, cx := range cexts {
		cx.Configure(c, "", f)
	}
	return c, lang, goLang
}

func goBinary(name string) *rule.Rule {
	r := rule.NewRule("go_binary", name)
	r.SetAttr("embed", []string{":" + name + "_lib"})
	return r
}

func generate(t *testing.T, lang *captureLang, c *config.Config, rel string, files []string, build string, gen ...*rule.Rule) language.GenerateResult {
	t.Helper()
	var f *rule.File
	if build != "" {
		var err error
		if f, err = rule.LoadData(rel+"/BUILD.bazel", rel, []byte(build)); err != nil {
			t.Fatal(err)
		}
	}
	return lang.GenerateRules(language.GenerateArgs{
		Config:       c,
		Dir:          filepath.Join(c.RepoRoot, filepath.FromSlash(rel)),
		Rel:          rel,
		File:         f,
		RegularFiles: files,
		OtherGen:     gen,
	})
}

func names(rs []*rule.Rule) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Kind()+" "+r.Name())
	}
	return out
}

func TestGenerateObservedSetPrecedence(t *testing.T) {
	captureLog(t)
	c, lang, _ := workspace(t, map[string]string{
		"cmd/annotated/main.go": "package main\n\n//capture:observe example.com/app/b\n//capture:observe example.com/app/c example.com/app/b\nfunc main() {}\n",
		"cmd/annotated/doc.go":  "// Package x is not main: its annotation is ignored.\npackage x\n\n//capture:observe example.com/app/z\n",
		"cmd/plain/main.go":     "package main\n\nfunc main() {}\n",
	}, "# gazelle:capture_observe example.com/app/a\n")

	res := generate(t, lang, c, "cmd/annotated", []string{"main.go", "doc.go"}, "", goBinary("annotated"))
	if got, want := names(res.Gen), []string{"go_capture_binary annotated_capture", "go_replay_test replay_tests"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("generated %q, want %q", got, want)
	}
	// The annotation replaces the directive; annotations merge in source order.
	for i, imp := range res.Imports {
		if got, want := observedOf(t, imp), []string{"example.com/app/b", "example.com/app/c"}; !reflect.DeepEqual(got, want) {
			t.Errorf("rule %d imports %q, want %q", i, got, want)
		}
	}

	res = generate(t, lang, c, "cmd/plain", []string{"main.go"}, "", goBinary("plain"))
	if len(res.Gen) != 2 || !reflect.DeepEqual(observedOf(t, res.Imports[0]), []string{"example.com/app/a"}) {
		t.Errorf("without annotation: generated %q with imports %v, want the directive's set", names(res.Gen), res.Imports)
	}

	// No go_binary: nothing, even with a directive in effect.
	if res := generate(t, lang, c, "lib", nil, ""); len(res.Gen) != 0 || len(res.Empty) != 0 {
		t.Errorf("library package: generated %q, empty %q, want nothing", names(res.Gen), names(res.Empty))
	}
}

// observedOf returns the observed set GenerateRules handed to Resolve for a rule.
func observedOf(t *testing.T, imports interface{}) []string {
	t.Helper()
	switch imp := imports.(type) {
	case observeImports:
		return imp
	case replayImports:
		return imp.observe
	}
	t.Fatalf("imports of type %T", imports)
	return nil
}

// mainLibrary is the go_library of a main package as the Go extension generates
// it: the imports of its sources in a private attribute.
func mainLibrary(name string, imports rule.PlatformStrings) *rule.Rule {
	r := rule.NewRule("go_library", name)
	r.SetPrivateAttr(config.GazelleImportsKey, imports)
	return r
}

func TestGenerateHandsMainImportsToReplayTest(t *testing.T) {
	captureLog(t)
	c, lang, _ := workspace(t, map[string]string{"cmd/s/main.go": "package main\n\nfunc main() {}\n"}, "# gazelle:capture_observe example.com/app/gen\n")
	imports := rule.PlatformStrings{
		Generic: []string{"example.com/app/gen", "example.com/app/units", "fmt"},
		OS:      map[string][]string{"linux": {"example.com/app/linuxonly"}},
	}
	// A test library of the directory is not the main package's.
	testLib := mainLibrary("s_test_lib", rule.PlatformStrings{Generic: []string{"example.com/app/testonly"}})
	res := generate(t, lang, c, "cmd/s", []string{"main.go"}, "", testLib, mainLibrary("s_lib", imports), goBinary("s"))
	if got, want := names(res.Gen), []string{"go_capture_binary s_capture", "go_replay_test replay_tests"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("generated %q, want %q", got, want)
	}
	if _, ok := res.Imports[0].(observeImports); !ok {
		t.Errorf("capture binary's imports are %T, want observeImports", res.Imports[0])
	}
	ri, ok := res.Imports[1].(replayImports)
	if !ok {
		t.Fatalf("replay test's imports are %T, want replayImports", res.Imports[1])
	}
	if !reflect.DeepEqual(ri.main, imports) {
		t.Errorf("main imports %+v, want those of s_lib %+v", ri.main, imports)
	}
}

func TestGenerateCaptureBinaryFollowsRenamedBinary(t *testing.T) {
	captureLog(t)
	c, lang, _ := workspace(t, map[string]string{"cmd/s/main.go": "package main\n\nfunc main() {}\n"}, "# gazelle:capture_observe example.com/app/gen\n")
	for _, tc := range []struct {
		name, build, want string
	}{
		{"no BUILD file", "", "s"},
		{"same name", `go_binary(name = "s", embed = [":s_lib"])`, "s"},
		// Gazelle merges the generated go_binary into the only one of the file.
		{"renamed by the user", `go_binary(name = "server", embed = [":s_lib"])`, "server"},
		// Two go_binary rules, none named s: Gazelle reports the ambiguity
		// and merges into neither; the generated name stays.
		{"ambiguous", "go_binary(name = \"a\")\ngo_binary(name = \"b\")\n", "s"},
	} {
		res := generate(t, lang, c, "cmd/s", []string{"main.go"}, tc.build, goBinary("s"))
		if len(res.Gen) == 0 {
			t.Fatalf("%s: nothing generated", tc.name)
		}
		r := res.Gen[0]
		if r.Name() != tc.want+"_capture" || r.AttrString("binary") != ":"+tc.want {
			t.Errorf("%s: generated %s with binary %s, want %s_capture with :%s", tc.name, r.Name(), r.AttrString("binary"), tc.want, tc.want)
		}
	}
}

func TestGenerateEmptyRulesOnlyForGeneratedShapes(t *testing.T) {
	captureLog(t)
	c, lang, _ := workspace(t, map[string]string{"cmd/s/main.go": "package main\n\nfunc main() {}\n"}, "")
	existing := `
go_capture_binary(name = "s_capture", binary = ":s", observe = ["//a"])
go_capture_binary(name = "other_capture", binary = ":s", observe = ["//a"])
go_capture_binary(name = "hand", binary = ":s", observe = ["//a"])
go_replay_test(name = "replay_tests", observe = ["//a"], logs = glob(["x/*.arrow"]))
go_replay_test(name = "nightly", observe = ["//a"], logs = glob(["x/*.arrow"]))
`
	res := generate(t, lang, c, "cmd/s", []string{"main.go"}, existing, goBinary("s"))
	if len(res.Gen) != 0 {
		t.Errorf("generated %q without an observed set", names(res.Gen))
	}
	if got, want := names(res.Empty), []string{"go_capture_binary s_capture", "go_replay_test replay_tests"}; !reflect.DeepEqual(got, want) {
		t.Errorf("empty rules %q, want %q", got, want)
	}
}

func TestResolve(t *testing.T) {
	logged := captureLog(t)
	c, lang, goLang := workspace(t, map[string]string{}, "# gazelle:resolve go example.com/ext/lib @ext//lib\n")

	ix := resolve.NewRuleIndex(func(r *rule.Rule, _ string) resolve.Resolver {
		if r.Kind() == "go_library" {
			return goLang
		}
		return nil
	}, goLang)
	for _, lib := range []struct{ rel, name, imp string }{
		{"pricing", "pricing", "example.com/app/pricing"},
		{"dup/one", "one", "example.com/app/dup"},
		{"dup/two", "two", "example.com/app/dup"},
	} {
		r := rule.NewRule("go_library", lib.name)
		r.SetAttr("importpath", lib.imp)
		f := rule.EmptyFile(lib.rel+"/BUILD.bazel", lib.rel)
		r.Insert(f)
		ix.AddRule(c, r, f)
	}
	ix.Finish()
	lang.libraries["example.com/app/pricing"] = libraryInfo{rel: "pricing", mapped: false}

	r := rule.NewRule(replayTestKind, replayTestName)
	imports := observeImports{"example.com/app/pricing", "example.com/ext/lib", "example.com/app/nosuch", "net/http", "example.com/app/dup"}
	from := label.New("", "cmd/s", replayTestName)
	lang.Resolve(c, ix, nil, r, imports, from)

	want := []string{"//pricing", "@ext//lib", "example.com/app/dup", "example.com/app/nosuch"}
	if got := r.AttrStrings("observe"); !reflect.DeepEqual(got, want) {
		t.Errorf("observe = %q, want %q", got, want)
	}
	for _, w := range []string{
		`"example.com/app/nosuch": no go_library with this importpath is known to Gazelle`,
		`# gazelle:resolve go example.com/app/nosuch <label of its go_library>`,
		`"net/http": standard library packages cannot be observed`,
		`"example.com/app/dup": rule //cmd/s:replay_tests imports "example.com/app/dup" which matches multiple rules`,
		`pricing/BUILD.bazel: observed package "example.com/app/pricing" is built by rules_go's go_library`,
		`'# gazelle:map_kind go_library go_library @rules_capture//rules:defs.bzl'`,
	} {
		if !strings.Contains(logged.String(), w) {
			t.Errorf("log lacks %q:\n%s", w, logged)
		}
	}

	// A second rule of the package names the same paths: no repeated warnings.
	before := logged.Len()
	lang.Resolve(c, ix, nil, rule.NewRule(captureBinaryKind, "s_capture"), imports, label.New("", "cmd/s", "s_capture"))
	if logged.Len() != before {
		t.Errorf("warnings repeated:\n%s", logged.String()[before:])
	}

	// Only the standard library named: no observe attribute at all.
	r = rule.NewRule(replayTestKind, replayTestName)
	lang.Resolve(c, ix, nil, r, observeImports{"fmt"}, from)
	if r.Attr("observe") != nil {
		t.Errorf("observe = %q, want no attribute", r.AttrStrings("observe"))
	}
}

func TestResolveReplayDeps(t *testing.T) {
	captureLog(t)
	c, lang, goLang := workspace(t, map[string]string{}, "# gazelle:resolve go example.com/ext/money @money//:money\n")
	ix := resolve.NewRuleIndex(func(r *rule.Rule, _ string) resolve.Resolver {
		if r.Kind() == "go_library" {
			return goLang
		}
		return nil
	}, goLang)
	for _, lib := range []struct{ rel, name, imp string }{
		{"gen", "gen", "example.com/app/gen"},
		{"units", "units", "example.com/app/units"},
		{"app", "app", "example.com/app/app"},
		{"sys/linux", "linux", "example.com/app/sys/linux"},
		{"cmd/s/local", "local", "example.com/app/cmd/s/local"},
	} {
		r := rule.NewRule("go_library", lib.name)
		r.SetAttr("importpath", lib.imp)
		f := rule.EmptyFile(lib.rel+"/BUILD.bazel", lib.rel)
		r.Insert(f)
		ix.AddRule(c, r, f)
	}
	ix.Finish()
	from := label.New("", "cmd/s", replayTestName)
	resolveDeps := func(observe []string, main rule.PlatformStrings) *rule.Rule {
		r := rule.NewRule(replayTestKind, replayTestName)
		lang.Resolve(c, ix, nil, r, replayImports{observe: observe, main: main}, from)
		return r
	}

	// The observed packages and the standard library are left out; labels are
	// relative to the package, as in the main package's deps.
	r := resolveDeps([]string{"example.com/app/gen"}, rule.PlatformStrings{
		Generic: []string{"example.com/app/app", "example.com/app/cmd/s/local", "example.com/app/gen", "example.com/app/units", "example.com/ext/money", "fmt", "net/http"},
	})
	if got, want := r.AttrStrings("observe"), []string{"//gen"}; !reflect.DeepEqual(got, want) {
		t.Errorf("observe = %q, want %q", got, want)
	}
	if got, want := r.AttrStrings("deps"), []string{"//app", "//cmd/s/local", "//units", "@money//:money"}; !reflect.DeepEqual(got, want) {
		t.Errorf("deps = %q, want %q", got, want)
	}

	// Platform-specific imports stay platform-specific: a select(), as in the
	// main package's go_library.
	r = resolveDeps([]string{"example.com/app/gen"}, rule.PlatformStrings{
		Generic: []string{"example.com/app/units"},
		OS:      map[string][]string{"@io_bazel_rules_go//go/platform:linux": {"example.com/app/sys/linux", "syscall"}},
	})
	out := string(bzl.FormatWithoutRewriting(&bzl.File{Stmt: []bzl.Expr{r.Attr("deps")}}))
	for _, w := range []string{`"//units",`, `] + select({`, `"@io_bazel_rules_go//go/platform:linux": [`, `"//sys/linux",`} {
		if !strings.Contains(out, w) {
			t.Errorf("deps lacks %s:\n%s", w, out)
		}
	}

	// Nothing but observed and standard packages: no deps attribute, so a
	// stale one is removed when Gazelle merges.
	r = resolveDeps([]string{"example.com/app/gen"}, rule.PlatformStrings{Generic: []string{"example.com/app/gen", "fmt"}})
	if r.Attr("deps") != nil {
		t.Errorf("deps = %q, want no attribute", r.AttrStrings("deps"))
	}
}

func TestLoads(t *testing.T) {
	for _, tc := range []struct {
		repoName string
		apparent map[string]string
		want     string
	}{
		{repoName: "", want: "@rules_capture//rules:defs.bzl"},
		{repoName: "my_app", want: "@rules_capture//rules:defs.bzl"},
		{repoName: "my_app", apparent: map[string]string{"rules_capture": "capture"}, want: "@capture//rules:defs.bzl"},
		{repoName: "rules_capture", want: "//rules:defs.bzl"},
		{repoName: "rules_capture", apparent: map[string]string{"rules_capture": "capture"}, want: "//rules:defs.bzl"},
	} {
		lang := NewLanguage().(*captureLang)
		c := config.New()
		c.RepoName = tc.repoName
		if err := lang.CheckFlags(nil, c); err != nil {
			t.Fatal(err)
		}
		loads := lang.ApparentLoads(func(m string) string { return tc.apparent[m] })
		if tc.apparent == nil {
			loads = lang.Loads()
		}
		if len(loads) != 1 || loads[0].Name != tc.want || !reflect.DeepEqual(loads[0].Symbols, []string{"go_capture_binary", "go_replay_test"}) {
			t.Errorf("repo %q, apparent names %v: loads %+v, want %s", tc.repoName, tc.apparent, loads, tc.want)
		}
	}
}

func TestSortedUnique(t *testing.T) {
	if got, want := sortedUnique([]string{"b", "a", "b", "c", "a"}), []string{"a", "b", "c"}; !reflect.DeepEqual(got, want) {
		t.Errorf("sortedUnique = %q, want %q", got, want)
	}
	if got := sortedUnique(nil); len(got) != 0 {
		t.Errorf("sortedUnique(nil) = %q", got)
	}
}

func TestObservedRels(t *testing.T) {
	lib := func(imp string) *rule.Rule {
		r := rule.NewRule("go_library", "lib")
		r.SetAttr("importpath", imp)
		return r
	}
	observe := []string{"example.com/app/pricing", "example.com/other/x", "example.com/app", "example.com/apple", "example.com/app/a/b", "example.com/app/pricing"}
	for _, tc := range []struct {
		rel  string
		gen  []*rule.Rule
		want []string
	}{
		{rel: "cmd/server", gen: []*rule.Rule{goBinary("server"), lib("example.com/app/cmd/server")}, want: []string{"", "a/b", "pricing"}},
		{rel: "", gen: []*rule.Rule{lib("example.com/app")}, want: []string{"", "a/b", "pricing"}},
		// A main package whose import path does not end with its directory
		// (a go_prefix below the root): no guess.
		{rel: "cmd/server", gen: []*rule.Rule{lib("example.com/app/server")}, want: nil},
		{rel: "cmd/server", gen: []*rule.Rule{goBinary("server")}, want: nil},
	} {
		if got := observedRels(tc.rel, tc.gen, observe); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("observedRels(%q) = %q, want %q", tc.rel, got, tc.want)
		}
	}
}

// TestOwnedAttributesAreDocumented keeps docs/gazelle.md's table of what
// Gazelle recomputes on every run in sync with Kinds: every attribute Gazelle
// merges must be named in the row of its kind.
func TestOwnedAttributesAreDocumented(t *testing.T) {
	doc, err := os.ReadFile(docsFile(t, "docs/gazelle.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(string(doc), "\n") {
		for _, kind := range []string{captureBinaryKind, replayTestKind} {
			if strings.HasPrefix(line, "| `"+kind+".") {
				rows[kind] += line
			}
		}
	}
	for kind, info := range (&captureLang{}).Kinds() {
		row, ok := rows[kind]
		if !ok {
			t.Errorf("docs/gazelle.md has no row | `%s.<attribute>` ... in its re-run table", kind)
			continue
		}
		for _, attrs := range []map[string]bool{info.MergeableAttrs, info.ResolveAttrs} {
			for attr := range attrs {
				if !strings.Contains(row, "`"+attr+"`") && !strings.Contains(row, "`"+kind+"."+attr+"`") {
					t.Errorf("docs/gazelle.md: the re-run table's row of %s does not name %s, which Gazelle recomputes", kind, attr)
				}
			}
		}
	}
}

// docsFile finds a file of the repository under Bazel (runfiles) or go test
// (relative to the package directory).
func docsFile(t *testing.T, rel string) string {
	t.Helper()
	for _, env := range []string{"RUNFILES_DIR", "TEST_SRCDIR"} {
		if dir := os.Getenv(env); dir != "" {
			p := filepath.Join(dir, "rules_capture", rel)
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
	}
	return filepath.Join("..", filepath.FromSlash(rel))
}
