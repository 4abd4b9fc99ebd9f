package goflagvalue_test

import (
	"flag"
	"testing"

	"example.com/repros/goflagvalue"
)

func TestZeroDefault(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.String("empty", "", "")
	fs.String("name", "api", "")
	fs.Int("port", 0, "")
	fs.Int("retries", 3, "")
	for name, want := range map[string]bool{"empty": true, "name": false, "port": true, "retries": false} {
		if got := goflagvalue.ZeroDefault(fs.Lookup(name)); got != want {
			t.Errorf("ZeroDefault(%s) = %v, want %v", name, got, want)
		}
	}
	if got := goflagvalue.Kind(fs.Lookup("port")); got != "int" {
		t.Errorf("Kind(port) = %q", got)
	}
}

// TestTestingFlags: a test binary's flag.CommandLine holds testing's own
// flags; -test.v is a *testing.chattyFlag.
func TestTestingFlags(t *testing.T) {
	v := flag.CommandLine.Lookup("test.v")
	if v == nil {
		t.Skip("no -test.v flag")
	}
	if got := goflagvalue.Kind(v); got != "struct" {
		t.Errorf("Kind(test.v) = %q", got)
	}
	if !goflagvalue.ZeroDefault(v) {
		t.Errorf("ZeroDefault(test.v) = false")
	}
}
