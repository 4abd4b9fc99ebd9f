// Package gazelle_ext is rules_capture's Gazelle language extension.
//
// In a directory where Gazelle's Go extension generates a go_binary, it generates
//
//	go_capture_binary(name = "<binary>_capture", binary = ":<binary>", observe = [...])
//	go_replay_test(name = "replay_tests", observe = [...], logs = glob([...]), deps = [...])
//
// when the main package has an observed set. The observed set is named by
//
//	//capture:observe <import path>...
//	    line comments in the Go files of the main package (any number of lines,
//	    any number of paths per line; together they form the set);
//	# gazelle:capture_observe <import path>...
//	    a BUILD file directive for the directory and all directories below it,
//	    used by main packages without annotations. Replaces the inherited set;
//	    without arguments it clears it.
//
// and the logs directory by
//
//	# gazelle:capture_logs <dir>
//	    relative to the package (default testdata/capture).
//
// Import paths are resolved to go_library labels through Gazelle's rule index in
// the Resolve phase. The replay test's deps are the main package's imports other
// than the observed set and the standard library: the packages a program's own
// type arguments of observed generics come from, which the replay harness must
// link to name those instantiations. docs/gazelle.md is the user documentation.
package gazelle_ext

import (
	"fmt"
	"path"
	"strings"

	"github.com/bazelbuild/bazel-gazelle/config"
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
