package compile_test

import (
	"testing"

	"example.com/errorbind/compile"
)

func TestCompile(t *testing.T) {
	if n, err := compile.Compile("a\nb"); n != 2 || err != nil {
		t.Fatalf("Compile = %d, %v", n, err)
	}
	_, err := compile.Compile("a = 1\nb = c!")
	if err == nil || err.Error() != `unexpected '!' (2:6) "b = c!"` {
		t.Fatalf("err = %v", err)
	}
	_, err = compile.Compile("# hi!")
	if err == nil || err.Error() != `unexpected '!' (in a comment) (1:5) "# hi!"` {
		t.Fatalf("err = %v", err)
	}
}

func TestWhere(t *testing.T) {
	if l, c := compile.Where("x\ny\n  z!"); l != 3 || c != 4 {
		t.Fatalf("Where = %d:%d", l, c)
	}
	if l, c := compile.Where("fine"); l != 0 || c != 0 {
		t.Fatalf("Where = %d:%d", l, c)
	}
}
