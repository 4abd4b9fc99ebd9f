package ctxrealize_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"example.com/repros/ctxrealize"
)

func TestRoute(t *testing.T) {
	var got string
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = ctxrealize.Route(r)
	})
	ctxrealize.Handle(h, httptest.NewRecorder(), httptest.NewRequest("GET", "/a", nil), "/a")
	if got != "/a" {
		t.Errorf("Route = %q, want /a", got)
	}
	if !ctxrealize.Same(h.ServeHTTP, h.ServeHTTP) {
		t.Error("a handler is not itself")
	}
}
