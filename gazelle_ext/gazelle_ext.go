// Package gazelle_ext is rules_capture's Gazelle language extension.
//
// It reads two directives from BUILD files; like every Gazelle directive they apply
// to the directory of the BUILD file and to all directories below it:
//
//	# gazelle:capture_observe <import path>...
//	    The observed set: the Go packages whose boundary is recorded. Replaces the
//	    inherited set; without arguments it clears it.
//	# gazelle:capture_logs <dir>
//	    Where replay tests find event logs, relative to the package
//	    (default testdata/capture).
//
// Generating the capture binary and replay test targets from this configuration is
// not implemented yet: GenerateRules emits nothing.
package gazelle_ext

import (
	"flag"
	"fmt"
	"log"
	"path"
	"strings"

	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/label"
	"github.com/bazelbuild/bazel-gazelle/language"
	"github.com/bazelbuild/bazel-gazelle/repo"
	"github.com/bazelbuild/bazel-gazelle/resolve"
	"github.com/bazelbuild/bazel-gazelle/rule"
	"golang.org/x/mod/module"
)

const (
	languageName = "capture"

	observeDirective = "capture_observe"
	logsDirective    = "capture_logs"

	// DefaultLogsDir is where replay tests look for event logs unless a
	// capture_logs directive says otherwise.
	DefaultLogsDir = "testdata/capture"
)

// Config is the capture configuration of one directory.
type Config struct {
	// Observe lists the import paths of the observed set, in directive order,
	// without duplicates.
	Observe []string
	// LogsDir is the event log directory, relative to the package directory.
	LogsDir string
}

func defaultConfig() *Config { return &Config{LogsDir: DefaultLogsDir} }

// GetConfig returns the capture configuration Gazelle computed for the directory
// that c belongs to (the default configuration if Configure never ran).
func GetConfig(c *config.Config) *Config {
	if cc, ok := c.Exts[languageName].(*Config); ok {
		return cc
	}
	return defaultConfig()
}

// applyDirectives returns the configuration of a directory: parent's, changed by the
// capture directives among ds. Invalid directives are reported and leave the
// inherited value in place.
func applyDirectives(parent *Config, ds []rule.Directive) (*Config, []error) {
	cc := &Config{
		Observe: append([]string(nil), parent.Observe...),
		LogsDir: parent.LogsDir,
	}
	var errs []error
	for _, d := range ds {
		switch d.Key {
		case observeDirective:
			observe, err := parseObserve(d.Value)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			cc.Observe = observe
		case logsDirective:
			dir, err := parseLogsDir(d.Value)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			cc.LogsDir = dir
		}
	}
	return cc, errs
}

func parseObserve(value string) ([]string, error) {
	var observe []string
	seen := map[string]bool{}
	for _, p := range strings.Fields(value) {
		if err := module.CheckImportPath(p); err != nil {
			return nil, fmt.Errorf("# gazelle:%s: %q is not a Go import path (%v); list import paths such as example.com/app/store", observeDirective, p, err)
		}
		if !seen[p] {
			seen[p] = true
			observe = append(observe, p)
		}
	}
	return observe, nil
}

func parseLogsDir(value string) (string, error) {
	fields := strings.Fields(value)
	if len(fields) != 1 {
		return "", fmt.Errorf("# gazelle:%s takes exactly one directory, got %d; write e.g. '# gazelle:%s %s'", logsDirective, len(fields), logsDirective, DefaultLogsDir)
	}
	dir := fields[0]
	if path.IsAbs(dir) || strings.Contains(dir, `\`) {
		return "", fmt.Errorf("# gazelle:%s %s: the directory must be relative to the package, with '/' separators", logsDirective, dir)
	}
	clean := path.Clean(dir)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Errorf("# gazelle:%s %s: the directory must be inside the package (Bazel cannot glob files of another package)", logsDirective, dir)
	}
	return clean, nil
}

type captureLang struct{}

// NewLanguage is the constructor gazelle_binary calls.
func NewLanguage() language.Language { return captureLang{} }

func (captureLang) RegisterFlags(*flag.FlagSet, string, *config.Config) {}
func (captureLang) CheckFlags(*flag.FlagSet, *config.Config) error      { return nil }
func (captureLang) KnownDirectives() []string {
	return []string{observeDirective, logsDirective}
}

// Configure computes the directory's configuration from its parent's (Gazelle hands
// each directory a copy of the parent's config.Config) and the BUILD file directives.
func (captureLang) Configure(c *config.Config, rel string, f *rule.File) {
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

func (captureLang) Name() string { return languageName }
func (captureLang) Imports(*config.Config, *rule.Rule, *rule.File) []resolve.ImportSpec {
	return nil
}
func (captureLang) Embeds(*rule.Rule, label.Label) []label.Label { return nil }
func (captureLang) Resolve(*config.Config, *resolve.RuleIndex, *repo.RemoteCache, *rule.Rule, interface{}, label.Label) {
}
func (captureLang) Kinds() map[string]rule.KindInfo { return nil }
func (captureLang) Loads() []rule.LoadInfo          { return nil }
func (captureLang) GenerateRules(language.GenerateArgs) language.GenerateResult {
	return language.GenerateResult{}
}
func (captureLang) Fix(*config.Config, *rule.File) {}
