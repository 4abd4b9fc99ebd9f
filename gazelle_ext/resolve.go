package gazelle_ext

import (
	"errors"
	"fmt"

	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/label"
	golang "github.com/bazelbuild/bazel-gazelle/language/go"
	"github.com/bazelbuild/bazel-gazelle/repo"
	"github.com/bazelbuild/bazel-gazelle/resolve"
	"github.com/bazelbuild/bazel-gazelle/rule"
)

// Resolve sets the observe attribute of a generated rule: the go_library labels of
// the observed import paths, found the way Gazelle's Go extension finds deps (a
// `# gazelle:resolve go` override first, then the rule index of go_library targets,
// with its vendoring and ambiguity rules). It never guesses a label of an external
// repository and never goes to the network: observed packages are compiled from
// source by rules_capture's go_library, so they live in this repository or are
// named by an override.
//
// An import path that does not resolve stays in observe as written, after a
// warning that says how to fix it: go_capture_binary accepts import paths, and
// go_replay_test rejects them with a message naming them, so the mistake cannot
// pass unnoticed as a smaller observed set.
func (l *captureLang) Resolve(c *config.Config, ix *resolve.RuleIndex, rc *repo.RemoteCache, r *rule.Rule, importsRaw interface{}, from label.Label) {
	switch imports := importsRaw.(type) {
	case observeImports:
		l.resolveObserve(c, ix, rc, r, imports, from)
	case replayImports:
		observe := l.resolveObserve(c, ix, rc, r, imports.observe, from)
		resolveReplayDeps(c, ix, rc, r, imports, observe, from)
	}
}

// resolveObserve sets the observe attribute of r and returns its values.
func (l *captureLang) resolveObserve(c *config.Config, ix *resolve.RuleIndex, rc *repo.RemoteCache, r *rule.Rule, imports observeImports, from label.Label) []string {
	var observe []string
	for _, imp := range imports {
		lbl, err := l.resolveObserved(c, ix, rc, imp, from)
		if err != nil {
			l.warnOnce(from.Pkg+"\x00"+imp, "%s: %v", pkgName(from), err)
			if errors.Is(err, errStandard) {
				continue
			}
			observe = append(observe, imp)
			continue
		}
		l.checkMapKind(imp)
		observe = append(observe, lbl.Rel(from.Repo, from.Pkg).String())
	}
	if len(observe) == 0 {
		r.DelAttr("observe")
		return nil
	}
	observe = sortedUnique(observe)
	r.SetAttr("observe", observe)
	return observe
}

// resolveReplayDeps sets the deps attribute of the go_replay_test: the libraries the
// main package imports, other than the observed ones and the standard library.
//
// The harness must link, directly, the package of every type argument of the
// generic incalls in the logs (gen.Sum[units.Celsius] needs units). The exact set
// is in the logs; Gazelle does not read them (they change with every capture, and
// BUILD files would churn with them). The main package's imports are the cheap
// stand-in: a program instantiates the observed generics with its own types, and
// the main package imports the packages those come from when it makes the calls.
// Instantiations in packages below main can need a package main does not import;
// the CaptureHarness action names it, and an entry marked "# keep" adds it.
//
// Each import resolves as the Go extension resolves the main package's deps (so
// the two lists agree, select() for platform-specific imports included); an import
// it cannot resolve is left out here, the Go extension reports it.
func resolveReplayDeps(c *config.Config, ix *resolve.RuleIndex, rc *repo.RemoteCache, r *rule.Rule, imports replayImports, observe []string, from label.Label) {
	skip := map[string]bool{}
	for _, s := range imports.observe {
		skip[s] = true
	}
	for _, s := range observe {
		skip[s] = true
	}
	deps, _ := imports.main.MapSlice(func(ss []string) ([]string, error) {
		var out []string
		for _, imp := range ss {
			if skip[imp] || golang.IsStandard(imp) {
				continue
			}
			lbl, err := golang.ResolveGo(c, ix, rc, imp, from)
			if err != nil || lbl == label.NoLabel {
				continue
			}
			if s := lbl.Rel(from.Repo, from.Pkg).String(); !skip[s] {
				out = append(out, s)
			}
		}
		return sortedUnique(out), nil
	})
	if deps.IsEmpty() {
		r.DelAttr("deps")
		return
	}
	r.SetAttr("deps", deps)
}

// errStandard marks an observed import path of the standard library.
var errStandard = errors.New("standard library packages cannot be observed")

func (l *captureLang) resolveObserved(c *config.Config, ix *resolve.RuleIndex, rc *repo.RemoteCache, imp string, from label.Label) (label.Label, error) {
	if golang.IsStandard(imp) {
		return label.NoLabel, fmt.Errorf("observed package %q: %w, so it is left out of the observed set (calls into it are recorded as outcalls of the observed packages). Fix: remove it from %s / # gazelle:%s", imp, errStandard, observeAnnotation, observeDirective)
	}
	spec := resolve.ImportSpec{Lang: "go", Imp: imp}
	_, overridden := resolve.FindRuleWithOverride(c, spec, "go")
	if !overridden && len(ix.FindRulesByImportWithConfig(c, spec, "go")) == 0 {
		return label.NoLabel, fmt.Errorf("observed package %q: no go_library with this importpath is known to Gazelle; it is kept as an import path in observe, which go_replay_test rejects. Fix: correct the import path in %s / # gazelle:%s, or, if the package is built by a rule Gazelle does not index, add '# gazelle:resolve go %s <label of its go_library>' to the root BUILD.bazel", imp, observeAnnotation, observeDirective, imp)
	}
	// Found: let the Go extension pick among the candidates exactly as it does
	// for deps (it cannot reach its network fallback from here).
	lbl, err := golang.ResolveGo(c, ix, rc, imp, from)
	if err != nil {
		return label.NoLabel, fmt.Errorf("observed package %q: %v", imp, err)
	}
	if lbl == label.NoLabel {
		return label.NoLabel, fmt.Errorf("observed package %q resolves to no rule", imp)
	}
	return lbl, nil
}

// checkMapKind warns when an observed library generated in this run is a plain
// rules_go go_library: it would compile untransformed in the capture build, so
// the capture binary would record nothing at its boundary.
func (l *captureLang) checkMapKind(imp string) {
	info, ok := l.libraries[imp]
	if !ok || info.mapped {
		return
	}
	l.warnOnce("map_kind\x00"+imp, "%s: observed package %q is built by rules_go's go_library, which cannot switch to instrumented sources. Fix: add '# gazelle:map_kind go_library go_library %s' to the root BUILD.bazel (or to %s) and run Gazelle again", buildFile(info.rel), imp, l.defsLoad, buildFile(info.rel))
}

func pkgName(l label.Label) string {
	return "//" + l.Pkg + ":" + l.Name
}

func buildFile(rel string) string {
	if rel == "" {
		return "BUILD.bazel"
	}
	return rel + "/BUILD.bazel"
}
