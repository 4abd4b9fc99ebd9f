package user

import (
	"testing"

	"example.com/testtypes/env"
)

type inPkg struct {
	A int    `check:"a"`
	B string `check:"b"`
}

func TestInPackage(t *testing.T) {
	if got := Describe(inPkg{}); got != "A=a,B=b" {
		t.Fatalf("Describe = %q", got)
	}
	if got := Describe(&env.Env{Name: "X"}); got != "Count=count,Name=upper" {
		t.Fatalf("Describe = %q", got)
	}
}
