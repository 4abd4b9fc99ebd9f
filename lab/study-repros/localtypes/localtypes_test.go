package localtypes

import "testing"

// TestOmitEmpty and TestOmitZero declare one type name with other tags:
// reflection tells them apart, and the log named both alike.
func TestOmitEmpty(t *testing.T) {
	type simple struct {
		A int `enc:"omitempty"`
	}
	if got := Encode(simple{}); got != "A=int" {
		t.Fatal(got)
	}
}

func TestOmitZero(t *testing.T) {
	type simple struct {
		A int `enc:"omitzero"`
	}
	if got := Encode(simple{}); got != "" {
		t.Fatal(got)
	}
}

// TestFuncAndChan hands over values of unnamed func and chan types.
func TestFuncAndChan(t *testing.T) {
	if got := Encode(func() {}); got != "func" {
		t.Fatal(got)
	}
	if got := Encode(make(chan int)); got != "chan" {
		t.Fatal(got)
	}
	if got := Encode(struct{ F func() }{}); got != "F=func" {
		t.Fatal(got)
	}
}
