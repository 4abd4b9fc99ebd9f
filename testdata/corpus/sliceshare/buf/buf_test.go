package buf_test

import (
	"testing"

	"example.com/sliceshare/buf"
)

func TestExtendThenFill(t *testing.T) {
	b := buf.New()
	copy(b.Extend(2), "hi")
	copy(b.Extend(3), "!!!")
	if got := b.String(); got != "hi!!!" {
		t.Fatalf("String() = %q", got)
	}
	b.Bytes()[0] = 'H'
	if got := b.String(); got != "Hi!!!" {
		t.Fatalf("String() = %q", got)
	}
}

func TestCountsInPlace(t *testing.T) {
	c := buf.NewCounts(4)
	bk := c.Buckets()
	for _, v := range []int{0, 1, 1, 3, 3, 3} {
		bk[v]++
	}
	if got := c.Total(); got != 6 {
		t.Fatalf("Total() = %d", got)
	}
	bk[2] = 10
	if got := c.Total(); got != 16 {
		t.Fatalf("Total() = %d", got)
	}
}
