package testfiletypes

import "testing"

// fileLevel is declared in a _test.go file (toml's menu, go-querystring's
// customEncodedInt).
type fileLevel struct {
	A string `q:"a"`
	B int
}

func TestFileLevel(t *testing.T) {
	if got := Fields(fileLevel{A: "x", B: 1}); got != "A(a)=x B()=1" {
		t.Fatal(got)
	}
}

// TestLocal: a type declared inside the test (toml's table, go-querystring's
// Outer).
func TestLocal(t *testing.T) {
	type local struct{ C int }
	if got := Fields(&local{C: 3}); got != "C()=3" {
		t.Fatal(got)
	}
}

// TestLiteral: a struct type literal (toml's &struct{ A int }{},
// go-querystring's struct{ v string }).
func TestLiteral(t *testing.T) {
	if got := Fields(struct {
		V string `q:"v"`
		w int
	}{V: "v", w: 2}); got != "V(v)=v" {
		t.Fatal(got)
	}
}

// TestTwinA and TestTwinB declare one name alike (decimal's foo).
func TestTwinA(t *testing.T) {
	type foo struct{}
	if got := Fields(foo{}); got != "" {
		t.Fatal(got)
	}
}

func TestTwinB(t *testing.T) {
	type foo struct{}
	if got := Fields(&foo{}); got != "" {
		t.Fatal(got)
	}
}
