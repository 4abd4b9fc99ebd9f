// Package docs_test keeps docs/rules.md in sync with the Starlark sources:
// every attribute of every rule and every parameter of every public macro in
// rules/private/*.bzl must be documented.
package docs_test

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// repoFile finds a repository file from the test's runfiles (Bazel) or from
// the package directory (go test).
func repoFile(t *testing.T, rel string) string {
	t.Helper()
	for _, env := range []string{"RUNFILES_DIR", "TEST_SRCDIR"} {
		if dir := os.Getenv(env); dir != "" {
			p := filepath.Join(dir, "rules_capture", rel)
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
	}
	return filepath.Join("..", "..", "..", rel)
}

var (
	attrRe  = regexp.MustCompile(`(?m)^\s*"([a-z][a-z0-9_]*)": attr\.`)
	macroRe = regexp.MustCompile(`(?ms)^def ([a-z][a-z0-9_]*)\(([^)]*)\):\n\s*"""`)
	ruleRe  = regexp.MustCompile(`(?m)^(_?[a-z][a-z0-9_]*) = rule\(`)
)

// publicMacros are the functions re-exported by rules/defs.bzl.
var publicMacros = map[string]bool{"go_library": true, "go_capture_binary": true, "go_replay_test": true}

func TestEveryAttributeIsDocumented(t *testing.T) {
	doc, err := os.ReadFile(repoFile(t, "docs/rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	documented := func(name string) bool { return strings.Contains(text, "`"+name+"`") }

	files, err := filepath.Glob(repoFile(t, "rules/private") + "/*.bzl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no .bzl files found (%v)", err)
	}
	var missing []string
	checked := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		base := filepath.Base(f)
		for _, m := range ruleRe.FindAllStringSubmatch(src, -1) {
			checked++
			if !strings.Contains(text, strings.TrimPrefix(m[1], "_")) {
				missing = append(missing, base+": rule "+m[1])
			}
		}
		for _, m := range attrRe.FindAllStringSubmatch(src, -1) {
			checked++
			if !documented(m[1]) {
				missing = append(missing, base+": attribute "+m[1])
			}
		}
		for _, m := range macroRe.FindAllStringSubmatch(src, -1) {
			if !publicMacros[m[1]] {
				continue
			}
			if !strings.Contains(text, "## "+m[1]+"\n") {
				missing = append(missing, base+": macro "+m[1]+" has no section")
			}
			for _, p := range strings.Split(m[2], ",") {
				p = strings.TrimSpace(strings.SplitN(p, "=", 2)[0])
				if p == "" {
					continue
				}
				checked++
				if !documented(p) {
					missing = append(missing, base+": "+m[1]+" parameter "+p)
				}
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d names found in rules/private/*.bzl: the patterns of this test no longer match the sources", checked)
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("docs/rules.md does not document:\n  %s", strings.Join(missing, "\n  "))
	}
}
