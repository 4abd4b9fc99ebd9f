package words_test

import (
	"testing"

	"example.com/shadowed/words"
)

func TestParse(t *testing.T) {
	w, err := words.Parse([]byte("go=42"))
	if err != nil || string(w.Text) != "go" || w.Count != 42 || words.Known(w) == 0 {
		t.Fatalf("Parse = %+v, %v", w, err)
	}
	if got := string(words.Format(w)); got != "go=42" {
		t.Fatalf("Format = %q", got)
	}
	if _, err := words.Parse([]byte("go=x")); err == nil || err.At != 3 {
		t.Fatalf("Parse(go=x) = %v", err)
	}
	if _, err := words.Parse([]byte("go")); err == nil || err.At != -1 {
		t.Fatalf("Parse(go) = %v", err)
	}
}
