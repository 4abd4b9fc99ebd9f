package derefcopy_test

import (
	"net/http"
	"testing"

	"example.com/repros/derefcopy"
)

func TestRedirect(t *testing.T) {
	req, err := http.NewRequest("GET", "http://example.com/a//b?q=1", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := derefcopy.Redirect(req, "/a/b"), "http://example.com/a/b?q=1"; got != want {
		t.Fatalf("Redirect = %q, want %q", got, want)
	}
}
