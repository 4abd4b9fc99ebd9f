package cli

import (
	"bytes"
	"testing"
)

func TestMainSums(t *testing.T) {
	var buf bytes.Buffer
	p := New(&buf)
	if code := p.main([]string{"a=1", "b=2", "c=3"}); code != 0 {
		t.Fatalf("main = %d", code)
	}
	if got := buf.String(); got != "a 1\nb 3\nc 6\n" {
		t.Fatalf("output %q", got)
	}
}

func TestMainBadArgument(t *testing.T) {
	var buf bytes.Buffer
	if code := New(&buf).main([]string{"a=1", "b=-2"}); code != 1 {
		t.Fatalf("main = %d", code)
	}
	if code := New(&buf).main(nil); code != 2 {
		t.Fatalf("main = %d", code)
	}
}

func TestParseLine(t *testing.T) {
	if k, n, ok := parseLine("x=12"); !ok || k != "x" || n != 12 {
		t.Fatalf("parseLine = %q, %d, %v", k, n, ok)
	}
	if _, _, ok := parseLine("=1"); ok {
		t.Fatal("parseLine accepted an empty key")
	}
}

func TestScaleAsValue(t *testing.T) {
	f := scale
	if got := f(3, 4); got != 12 {
		t.Fatalf("scale = %d", got)
	}
}
