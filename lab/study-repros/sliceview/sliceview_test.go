package sliceview_test

import (
	"testing"

	"example.com/repros/sliceview"
)

func TestRangeOfWord(t *testing.T) {
	var p sliceview.Parser
	in := []byte("alpha beta gamma")
	p.Reset(in)
	p.Next()
	w := p.Next()
	if off, n := p.Range(w); off != 6 || n != 4 {
		t.Fatalf("Range(%q) = %d, %d", w, off, n)
	}
}

func TestRangeOfCallersSubslice(t *testing.T) {
	var p sliceview.Parser
	in := []byte("alpha beta gamma")
	p.Reset(in)
	if off, n := p.Range(in[11:]); off != 11 || n != 5 {
		t.Fatalf("Range = %d, %d", off, n)
	}
}

func TestRangeOfCopyPanics(t *testing.T) {
	var p sliceview.Parser
	p.Reset([]byte("alpha beta"))
	defer func() {
		if recover() == nil {
			t.Fatal("Range of a copy did not panic")
		}
	}()
	p.Range([]byte("alpha beta gamma delta"))
}
