package outwrites_test

import (
	"net/http"
	"testing"

	"example.com/repros/outwrites"
)

func TestQuery(t *testing.T) {
	got := outwrites.Query(map[string]any{"name": "acme", "addr": map[string]any{"city": "SFO", "zip": 1234}})
	if want := "addr%5Bcity%5D=SFO&addr%5Bzip%5D=1234&name=acme"; got != want {
		t.Fatalf("Query = %s, want %s", got, want)
	}
}

func TestList(t *testing.T) {
	l := outwrites.List{"a", "b"}
	if got, want := l.String(), `["a", "b"]`; got != want {
		t.Fatalf("String = %s, want %s", got, want)
	}
}

func TestTable(t *testing.T) {
	if got, want := outwrites.Table([]string{"x", "y"}, []int{1, 2}), "x: 1\ny: 2\nend\n"; got != want {
		t.Fatalf("Table = %q, want %q", got, want)
	}
}

func TestHost(t *testing.T) {
	got, err := outwrites.Host([]byte("https://example.com:8080/a?b=c"))
	if err != nil || got != "example.com:8080" {
		t.Fatalf("Host = %q, %v", got, err)
	}
}

func TestRewrite(t *testing.T) {
	req, err := http.NewRequest(http.MethodGet, "http://example.com/a", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := outwrites.Rewrite(req, "/b"), "http://example.com/b"; got != want {
		t.Fatalf("Rewrite = %s, want %s", got, want)
	}
}
