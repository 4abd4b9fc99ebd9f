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
	imports, ok := importsRaw.(observeImports)
	if !ok {
		return
	}
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
		return
	}
	r.SetAttr("observe", sortedUnique(observe))
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
