// Package testinit: an in-package test file's variable initialisers call
// exported functions of the observed package during initialisation
// (pflag's flag_test.go: `testBool = Bool("test_bool", false, ...)` defines
// flags on CommandLine). The capture's test binary ran them as if observed
// code called itself, unrecorded; the replay harness links no test files,
// so replay's registry lacked them (pflag's TestEverything).
package testinit

import (
	"os"
	"sort"
	"strings"
)

var registry = map[string]*int{}

// Define registers name with a default and returns where its value lives.
func Define(name string, value int) *int {
	p := new(int)
	*p = value
	registry[name] = p
	return p
}

// Names lists the registered names, sorted, with the prefix that the
// environment variable TESTINIT_PREFIX gives (an outcall).
func Names() string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return os.Getenv("TESTINIT_PREFIX") + strings.Join(names, ",")
}
