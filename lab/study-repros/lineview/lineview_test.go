package lineview_test

import (
	"testing"

	"example.com/repros/lineview"
)

type reader struct{ src []byte }

func (r reader) PeekLine() []byte { return r.src[6:] } // the second line
func (r reader) Source() []byte   { return r.src }

func TestIndent(t *testing.T) {
	ind, n := lineview.Indent(reader{[]byte("Apple\n:   fruit\n")})
	if ind != 3 || n != 16 {
		t.Fatalf("Indent = %d, %d", ind, n)
	}
}
