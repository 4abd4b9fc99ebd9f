package fsopen_test

import (
	"testing"
	"testing/fstest"

	"example.com/repros/fsopen"
)

func TestReadFile(t *testing.T) {
	fsys := fstest.MapFS{"a.toml": {Data: []byte("a = 1\n")}}
	got, err := fsopen.ReadFile(fsys, "a.toml")
	if err != nil || got != "a = 1\n" {
		t.Fatalf("ReadFile = %q, %v", got, err)
	}
	if _, err := fsopen.ReadFile(fsys, "missing.toml"); err == nil {
		t.Fatal("ReadFile of a missing file: no error")
	}
}
