package parse_test

import (
	"testing"

	"example.com/sliceview/parse"
)

func TestRangeOfWord(t *testing.T) {
	var p parse.Parser
	p.Reset([]byte("alpha beta gamma"))
	p.Next()
	w := p.Next()
	if off, n := p.Range(w); off != 6 || n != 4 {
		t.Fatalf("Range(%q) = %d, %d", w, off, n)
	}
}

func TestWriteThenPassBack(t *testing.T) {
	var p parse.Parser
	in := []byte("alpha beta gamma")
	p.Reset(in)
	p.Next()
	in[6] = 'B'
	if off, n := p.Range(in[6:10]); off != 6 || n != 4 {
		t.Fatalf("Range = %d, %d", off, n)
	}
	if got := p.Rest(); got != " Beta gamma" {
		t.Fatalf("Rest() = %q", got)
	}
}

func TestRangeOfCopyPanics(t *testing.T) {
	var p parse.Parser
	p.Reset([]byte("alpha beta"))
	defer func() {
		if recover() == nil {
			t.Fatal("Range of a copy did not panic")
		}
	}()
	p.Range([]byte("alpha beta gamma delta"))
}

func TestTokens(t *testing.T) {
	var k parse.Tokens
	nums := []int{1, 2, 3, 4, 5}
	k.Keep(nums)
	if i := k.Index(nums[3:]); i != 3 {
		t.Fatalf("Index = %d", i)
	}
	nums[0] = 10
	if i := k.Index(nums[:1]); i != 0 {
		t.Fatalf("Index = %d", i)
	}
	if s := k.Sum(); s != 24 {
		t.Fatalf("Sum() = %d", s)
	}
}
