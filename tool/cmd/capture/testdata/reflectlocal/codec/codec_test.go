package codec

import "testing"

// fileLevel is declared in a _test.go file, which the replay harness links
// into the observed package: replay rebuilds values of it.
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

// TestLiteral hands over a struct type literal with an unexported field,
// which no reflect.StructOf can make: replay finds the test's own type in
// the binary's type table.
func TestLiteral(t *testing.T) {
	if got := Fields(&struct {
		D string
		e int
	}{D: "d", e: 1}); got != "D=d" {
		t.Fatal(got)
	}
}

// TestTwinA and TestTwinB declare one type name twice, alike: reflection
// cannot tell which a value has, so replay takes either.
func TestTwinA(t *testing.T) {
	type twin struct{ E int }
	if got := Fields(twin{E: 5}); got != "E=5" {
		t.Fatal(got)
	}
}

func TestTwinB(t *testing.T) {
	type twin struct{ E int }
	if got := Fields(twin{E: 6}); got != "E=6" {
		t.Fatal(got)
	}
}

// TestShapeA and TestShapeB declare one type name twice with other
// fields: a log names each with the fingerprint of its structure, and
// replay takes the type of that fingerprint.
func TestShapeA(t *testing.T) {
	type shape struct{ G int }
	if got := Fields(shape{G: 7}); got != "G=7" {
		t.Fatal(got)
	}
}

func TestShapeB(t *testing.T) {
	type shape struct{ G string }
	if got := Fields(shape{G: "g"}); got != "G=g" {
		t.Fatal(got)
	}
}

// TestTesting hands over a testing.T by value.
func TestTesting(t *testing.T) {
	if got := Fields(testing.T{}); got != "" {
		t.Fatal(got)
	}
}

// Pair is an exported type of the observed package's test file, a type
// argument of the observed generic Same (go-toml's assert.Equal[assert.Data]).
type Pair struct{ A, B int }

func TestSameTestType(t *testing.T) {
	if !Same(Pair{1, 2}, Pair{1, 2}) {
		t.Fatal("Same")
	}
}

// TestFuncAndChan hands over values of unnamed func and chan types, which
// replay makes with reflect.FuncOf and ChanOf.
func TestFuncAndChan(t *testing.T) {
	if got := Fields(func(int) string { return "" }); got != "func" {
		t.Fatal(got)
	}
	if got := Fields(make(chan int)); got != "chan" {
		t.Fatal(got)
	}
}
