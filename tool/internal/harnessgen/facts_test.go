package harnessgen

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"

	"github.com/rules-capture/rules_capture/tool/transform"
)

// TestStarlarkFacts: the facts rules/private/constants.bzl spells for the
// rules are the ones the Go code defines.
func TestStarlarkFacts(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "..", "rules", "private", "constants.bzl"))
	if errors.Is(err, os.ErrNotExist) {
		t.Skip("rules/private/constants.bzl is not here (Bazel's sandbox): the check runs in go test ./...")
	}
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]any{
		"PROBE_IMPORTPATH": transform.ProbeImport,
	} {
		m := regexp.MustCompile(`(?m)^` + name + ` = (.*)$`).FindSubmatch(src)
		if m == nil {
			t.Errorf("constants.bzl defines no %s", name)
			continue
		}
		// The values are string and list-of-string literals in double
		// quotes: JSON.
		var got any
		if err := json.Unmarshal(m[1], &got); err != nil {
			t.Errorf("%s = %s: %v", name, m[1], err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("constants.bzl: %s = %s, the Go code says %q", name, m[1], want)
		}
	}
}
