package loop

import (
	"fmt"
	"testing"
)

// TestSharedLoopVariable: before go 1.22, a for loop has one variable.
func TestSharedLoopVariable(t *testing.T) {
	var ps []*int
	for i := 0; i < 3; i++ {
		ps = append(ps, &i)
	}
	if ps[0] != ps[2] {
		t.Fatal("the test's loop has a variable per iteration: the module's go 1.18 line was not kept")
	}
	if a := Addrs(3); a[0] != a[2] {
		t.Fatal("Addrs's loop has a variable per iteration: the module's go 1.18 line was not kept")
	}
}

// TestPanicNil: before go 1.21, recover returns nil after panic(nil)
// (GODEBUG panicnil=1, the default of a go 1.18 module).
func TestPanicNil(t *testing.T) {
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("recovered %v: the GODEBUG defaults are not those of the module's go 1.18 line", r)
		}
	}()
	panic(nil)
}

// TestFormat: vet checks non-constant format strings only in modules at
// go 1.24 or later (without arguments after the format); go test passes
// this one.
func TestFormat(t *testing.T) {
	format := "one"
	if s := fmt.Sprintf(format); s != "one" {
		t.Fatal(s)
	}
}
