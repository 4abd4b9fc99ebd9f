package main

import (
	"os"
	"strings"
	"testing"
)

// TestTestEnvironClearsFieldModes: a shell that rotates its services' logs,
// samples them or runs them as flight recorders must not turn capture test's per-test
// logs into segments or a ring that the test's report never finds.
func TestTestEnvironClearsFieldModes(t *testing.T) {
	t.Setenv("CAPTURE_ROTATE", "1MiB")
	t.Setenv("CAPTURE_KEEP", "3")
	t.Setenv("CAPTURE_MODE", "flight")
	t.Setenv("CAPTURE_SAMPLE", "0.05")
	t.Setenv("CAPTURE_SAMPLE_SEED", "1")
	t.Setenv("CAPTURE_TESTENV_KEPT", "yes")
	env := testEnviron()
	kept := false
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "CAPTURE_ROTATE", "CAPTURE_KEEP", "CAPTURE_MODE", "CAPTURE_SAMPLE", "CAPTURE_SAMPLE_SEED":
			t.Errorf("testEnviron kept %s", kv)
		case "CAPTURE_TESTENV_KEPT":
			kept = true
		}
	}
	if !kept {
		t.Errorf("testEnviron dropped an unrelated variable")
	}
	if len(env) != len(os.Environ())-5 {
		t.Errorf("testEnviron: %d variables, want %d", len(env), len(os.Environ())-5)
	}
}
