package reader_test

import (
	"testing"

	"example.com/lineview/reader"
)

type lines struct{ src []byte }

func (r lines) PeekLine() []byte { return r.src[6:] } // the second line
func (r lines) Source() []byte   { return r.src }

func TestIndent(t *testing.T) {
	ind, n := reader.Indent(lines{[]byte("Apple\n:   fruit\n")})
	if ind != 3 || n != 16 {
		t.Fatalf("Indent = %d, %d", ind, n)
	}
}
