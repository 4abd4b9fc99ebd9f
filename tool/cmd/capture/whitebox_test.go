package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/tool/internal/load"
)

// TestWhiteBoxWrites: an in-package test writing an unexported field of an
// observed type is reported with file:line, the field and the fix (study
// fault F11); exported fields and fields of test doubles are not.
func TestWhiteBoxWrites(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "p")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"p.go":      "package p\n\ntype T struct {\n\tclock func() int\n\tN     int\n}\n\nfunc New() *T { return &T{} }\n",
		"p_test.go": "package p\n\nimport \"testing\"\n\ntype fake struct{ clock int }\n\nfunc TestX(t *testing.T) {\n\tx := New()\n\tx.N = 2\n\tvar f fake\n\tf.clock = 1\n\tx.clock = func() int { return f.clock }\n}\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lp := &load.ListedPackage{ImportPath: "example.com/p", Name: "p", Dir: dir, GoFiles: []string{"p.go"}, TestGoFiles: []string{"p_test.go"}}
	msgs, err := whiteBoxWrites(nil, lp)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 1 {
		t.Fatalf("got %d messages, want 1: %q", len(msgs), msgs)
	}
	for _, want := range []string{"p/p_test.go:12:4:", "unexported field clock of an observed example.com/p.T", "is not supported in an observed package", "constructor option"} {
		if !strings.Contains(msgs[0], want) {
			t.Errorf("message lacks %q: %s", want, msgs[0])
		}
	}
	lp.TestGoFiles = nil
	if msgs, _ := whiteBoxWrites(nil, lp); len(msgs) != 0 {
		t.Errorf("no in-package tests: got %q", msgs)
	}
}
