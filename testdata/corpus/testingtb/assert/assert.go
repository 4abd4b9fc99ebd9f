// Package assert is a test helper package in the style of go-toml's
// internal/assert: observed code that receives the test's testing.TB and
// calls its methods. testing.TB has an unexported method, so no type of
// another package implements it by declaring methods: replay's stand-in
// for the recorded *testing.T embeds the interface.
package assert

import (
	"fmt"
	"reflect"
	"testing"
)

// Equal reports a failure when got differs from want.
func Equal(tb testing.TB, want, got any) bool {
	tb.Helper()
	if !reflect.DeepEqual(want, got) {
		tb.Errorf("%s: want %v, got %v", tb.Name(), want, got)
		return false
	}
	return true
}

// NoError stops the test when err is not nil.
func NoError(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatalf("unexpected error: %v", err)
	}
}

// Tracked counts the calls of Step and reports the count when the test
// ends.
type Tracked struct {
	steps int
	log   []string
}

// Track starts counting for tb.
func Track(tb testing.TB) *Tracked {
	tr := &Tracked{}
	tb.Cleanup(func() {
		tr.log = append(tr.log, fmt.Sprintf("%s: %d steps", tb.Name(), tr.steps))
	})
	return tr
}

// Step counts one step and logs it to tb.
func (tr *Tracked) Step(tb testing.TB, what string) int {
	tr.steps++
	tb.Logf("step %d: %s", tr.steps, what)
	return tr.steps
}

// True reports a failure when b is false: a *testing.T, whose methods are
// promoted from the unexported testing.common.
func True(t *testing.T, b bool) {
	t.Helper()
	if !b {
		t.Error("not true")
	}
}
