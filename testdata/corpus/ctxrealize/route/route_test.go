package route_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"example.com/ctxrealize/route"
)

func TestRoute(t *testing.T) {
	var got, typ string
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, typ = route.Route(r), route.ContextType(r)
	})
	route.Handle(h, httptest.NewRecorder(), httptest.NewRequest("GET", "/a", nil), "/a")
	if got != "/a" {
		t.Errorf("Route = %q, want /a", got)
	}
	if typ != "*context.valueCtx" {
		t.Errorf("ContextType = %q", typ)
	}
	if !route.Same(h.ServeHTTP, h.ServeHTTP) {
		t.Error("a handler is not itself")
	}
}
