package gazelle_ext

import (
	"flag"
	"log"
	"path"

	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/label"
	"github.com/bazelbuild/bazel-gazelle/language"
	golang "github.com/bazelbuild/bazel-gazelle/language/go"
	"github.com/bazelbuild/bazel-gazelle/resolve"
	"github.com/bazelbuild/bazel-gazelle/rule"
)

const (
	captureBinaryKind = "go_capture_binary"
	replayTestKind    = "go_replay_test"

	// replayTestName is the name of the generated replay test of a package.
	replayTestName = "replay_tests"
	// captureSuffix makes the capture binary's name from the go_binary's name.
	captureSuffix = "_capture"

	// rulesCaptureRepo is the canonical name of rules_capture's repository (the
	// WORKSPACE name and the Bazel module name).
	rulesCaptureRepo = "rules_capture"
	// defsPath is the public macro file inside that repository.
	defsPath = "//rules:defs.bzl"
)

// captureLang is the language.Language of rules_capture. Gazelle makes one value
// and calls it from one goroutine: GenerateRules for every directory first, then
// Resolve for every generated rule.
type captureLang struct {
	// defsLoad is the label rules load the macros from: @rules_capture//rules:defs.bzl,
	// or //rules:defs.bzl when Gazelle runs in rules_capture's own repository.
	defsLoad string
	// libraries maps the import path of every go_library Gazelle generated in this
	// run to whether a map_kind for go_library was in effect in its directory.
	libraries map[string]libraryInfo
	// warned remembers warnings already printed: several generated rules of one
	// package name the same import paths, and one warning per fix is enough.
	warned map[string]bool
	// goBinaryInfo is how Gazelle's Go extension matches a generated go_binary
	// with an existing rule (binaryName).
	goBinaryInfo rule.KindInfo
}

type libraryInfo struct {
	rel    string
	mapped bool
}

// NewLanguage is the constructor gazelle_binary calls.
func NewLanguage() language.Language {
	return &captureLang{
		defsLoad:     defsLoadFor(""),
		libraries:    map[string]libraryInfo{},
		warned:       map[string]bool{},
		goBinaryInfo: golang.NewLanguage().Kinds()["go_binary"],
	}
}

// defsLoadFor returns the load label of defs.bzl as seen from the repository
// Gazelle runs in. Inside rules_capture itself a load through @rules_capture would
// name the main repository by its own name, which Bazel resolves only in some
// setups; the package-relative label always works there.
func defsLoadFor(repoName string) string {
	if repoName == rulesCaptureRepo {
		return defsPath
	}
	return "@" + rulesCaptureRepo + defsPath
}

func (*captureLang) Name() string { return languageName }

func (*captureLang) RegisterFlags(*flag.FlagSet, string, *config.Config) {}

// CheckFlags runs once, after Gazelle's common configuration has read the
// repository name (WORKSPACE name or MODULE.bazel module name), and before Gazelle
// asks for Loads.
func (l *captureLang) CheckFlags(_ *flag.FlagSet, c *config.Config) error {
	l.defsLoad = defsLoadFor(c.RepoName)
	return nil
}

func (*captureLang) KnownDirectives() []string {
	return []string{observeDirective, logsDirective}
}

// Configure computes the directory's configuration from its parent's (Gazelle hands
// each directory a copy of the parent's config.Config) and the BUILD file directives.
func (*captureLang) Configure(c *config.Config, rel string, f *rule.File) {
	var ds []rule.Directive
	where := path.Join(rel, "BUILD.bazel")
	if f != nil {
		ds = f.Directives
		where = f.Path
	}
	cc, errs := applyDirectives(GetConfig(c), ds)
	for _, err := range errs {
		log.Printf("%s: %v", where, err)
	}
	c.Exts[languageName] = cc
}

// Kinds says how Gazelle merges the generated rules into existing ones, as for its
// own languages: attributes Gazelle computes (binary, logs, observe, deps) are
// replaced on every run, except values marked "# keep" (deps entries too, as in a
// go_library); everything a user adds (check, shard_count, size, tags, ...) is left
// alone. A rule whose observe list is gone after merging an empty rule is deleted.
func (*captureLang) Kinds() map[string]rule.KindInfo {
	return map[string]rule.KindInfo{
		// Matched by name only: a hand-written go_capture_binary of the same
		// binary (another observed set, say) must never be adopted and rewritten.
		captureBinaryKind: {
			NonEmptyAttrs:  map[string]bool{"binary": true, "observe": true},
			MergeableAttrs: map[string]bool{"binary": true, "observe": true},
			ResolveAttrs:   map[string]bool{"observe": true},
		},
		replayTestKind: {
			NonEmptyAttrs:  map[string]bool{"observe": true},
			MergeableAttrs: map[string]bool{"logs": true, "observe": true},
			// deps is computed in Resolve only, like a go_library's deps.
			ResolveAttrs: map[string]bool{"observe": true, "deps": true},
		},
	}
}

// Loads is used by Gazelle without Bzlmod support; ApparentLoads otherwise.
func (l *captureLang) Loads() []rule.LoadInfo {
	return l.loads(l.defsLoad)
}

// ApparentLoads honours a repo_name given to rules_capture in MODULE.bazel
// (bazel_dep(name = "rules_capture", repo_name = "capture")).
func (l *captureLang) ApparentLoads(moduleToApparentName func(string) string) []rule.LoadInfo {
	load := l.defsLoad
	if load != defsPath {
		if name := moduleToApparentName(rulesCaptureRepo); name != "" {
			load = "@" + name + defsPath
		}
	}
	return l.loads(load)
}

func (*captureLang) loads(name string) []rule.LoadInfo {
	return []rule.LoadInfo{{
		Name:    name,
		Symbols: []string{captureBinaryKind, replayTestKind},
	}}
}

// Imports: the generated rules are not importable by anything.
func (*captureLang) Imports(*config.Config, *rule.Rule, *rule.File) []resolve.ImportSpec {
	return nil
}

func (*captureLang) Embeds(*rule.Rule, label.Label) []label.Label { return nil }

func (*captureLang) Fix(*config.Config, *rule.File) {}

// warnOnce logs a warning unless the same key was warned about before.
func (l *captureLang) warnOnce(key, format string, args ...interface{}) {
	if l.warned[key] {
		return
	}
	l.warned[key] = true
	log.Printf(format, args...)
}
