package router_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"example.com/nopcloserbody/router"
)

func echo(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	w.Write(b)
}

// TestServe sends a POST whose Body is an io.nopCloserWriterTo.
func TestServe(t *testing.T) {
	rt := router.New()
	if !rt.Handle("/echo", http.HandlerFunc(echo)) || rt.Handle("/echo", http.HandlerFunc(echo)) {
		t.Fatal("Handle: want a new route, then the same handler refused")
	}
	r, err := http.NewRequest("POST", "/echo", strings.NewReader("hello"))
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	rt.ServeHTTP(w, r)
	if w.Body.String() != "hello" {
		t.Fatalf("body %q", w.Body.String())
	}
}

// TestDescribe describes such a request's route.
func TestDescribe(t *testing.T) {
	rt := router.New()
	rt.Handle("/echo", http.HandlerFunc(echo))
	r, err := http.NewRequest("PUT", "/echo", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	if got := rt.Describe(r); got != "PUT /echo live" {
		t.Fatalf("Describe = %q", got)
	}
}
