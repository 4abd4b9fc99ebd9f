package words_test

import (
	"testing"

	"example.com/viewcap/words"
)

func TestFirst(t *testing.T) {
	w := words.First("alpha beta")
	if string(w) != "alpha" || cap(w) != 42 {
		t.Fatalf("First = %q, cap %d", w, cap(w))
	}
}

func TestClip(t *testing.T) {
	in := []byte("  gamma")
	w := words.Clip(in)
	if string(w) != "gamma" || cap(w) != cap(in)-2 {
		t.Fatalf("Clip = %q, cap %d of %d", w, cap(w), cap(in))
	}
	in[2] = 'G'
	if w[0] != 'G' {
		t.Fatalf("Clip's result does not alias its argument")
	}
}
