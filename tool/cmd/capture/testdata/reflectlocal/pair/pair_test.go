package pair

import (
	"testing"

	"example.com/reflectlocal/codec"
)

func TestSame(t *testing.T) {
	if !codec.Same(Key{1, 2}, Key{1, 2}) || codec.Same(Key{1, 2}, Key{2, 1}) {
		t.Fatal("Same")
	}
}
