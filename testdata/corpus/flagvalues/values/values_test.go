package values

import "testing"

// Defined while the package initialises, before any test runs (pflag's
// flag_test.go: testBool = Bool("test_bool", ...)).
var (
	testLimit = Define("limit", 3)
	testDepth = Define("depth", 5)
)

// Run after the package's own init functions: an ordinary incall.
func init() { Define("frominit", 1) }

func TestNetwork(t *testing.T) {
	n, err := Network("10.1.2.3/8")
	if err != nil || n.String() != "10.0.0.0/8" {
		t.Fatalf("Network = %v, %v", n.String(), err)
	}
	var v IPNet
	if err := v.Set(" 192.168.1.7/24"); err != nil {
		t.Fatal(err)
	}
	if got := v.String(); got != "192.168.1.0/24" {
		t.Fatalf("String = %q", got)
	}
}

func TestFormat(t *testing.T) {
	got := Format(map[string]string{"b": "2,3", "a": "1"})
	if want := `[a=1,"b=2,3"]`; got != want {
		t.Fatalf("Format = %s, want %s", got, want)
	}
}

func TestNames(t *testing.T) {
	if got := Names(); got != "depth,frominit,limit" {
		t.Fatalf("Names = %q", got)
	}
	if *testLimit != 3 || *testDepth != 5 {
		t.Fatal("defaults")
	}
}
