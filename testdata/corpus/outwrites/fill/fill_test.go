package fill_test

import (
	"testing"

	"example.com/outwrites/ext"
	"example.com/outwrites/fill"
)

func TestQuery(t *testing.T) {
	got := fill.Query(map[string]any{"name": "acme", "addr": map[string]any{"city": "SFO", "zip": "1234", "tag": ext.Stamp("x")}})
	if want := "addr.city=SFO&addr.tag=x&addr.zip=1234&name=acme"; got != want {
		t.Fatalf("Query = %s, want %s", got, want)
	}
}

func TestWords(t *testing.T) {
	if w, n := fill.Words("a b a c b a"); w != "a" || n != 3 {
		t.Fatalf("Words = %s, %d", w, n)
	}
}

func TestLines(t *testing.T) {
	if n, last := fill.Lines("x\ny\nz"); n != 3 || last != "z" {
		t.Fatalf("Lines = %d, %s", n, last)
	}
}

func TestPairs(t *testing.T) {
	if got, want := fill.Pairs([]string{"a", "b"}, []int{1, 2}), "a=1;b=2;end"; got != want {
		t.Fatalf("Pairs = %s, want %s", got, want)
	}
}

func TestRewrite(t *testing.T) {
	r := &ext.Request{URL: &ext.URL{Path: "/static/a.txt"}}
	if got, want := fill.Rewrite(r, "a.txt"), "served /files/a.txt"; got != want {
		t.Fatalf("Rewrite = %s, want %s", got, want)
	}
}
