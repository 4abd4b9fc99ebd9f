package codec

import "testing"

// fileLevel is declared in a _test.go file: the replay build, which links
// the observed package without its tests, cannot name it.
type fileLevel struct {
	A string
	B int
}

func TestOwn(t *testing.T) {
	if got := Fields(&Option{Name: "x", Level: 2}); got != "Name=x Level=2" {
		t.Fatal(got)
	}
}

func TestFileLevel(t *testing.T) {
	if got := Fields(fileLevel{A: "a", B: 1}); got != "A=a B=1" {
		t.Fatal(got)
	}
}

func TestLocal(t *testing.T) {
	type local struct{ C int }
	if got := Fields(&local{C: 3}); got != "C=3" {
		t.Fatal(got)
	}
}
