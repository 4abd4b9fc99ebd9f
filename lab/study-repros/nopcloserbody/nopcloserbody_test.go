package nopcloserbody

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestBody routes a POST whose body is a strings.Reader (its Body is an
// io.nopCloserWriterTo) to a handler that echoes it.
func TestBody(t *testing.T) {
	rt := NewRouter()
	echo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Write(b)
	})
	if !rt.Handle("/echo", echo) || rt.Handle("/echo", echo) {
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
	w = httptest.NewRecorder()
	rt.ServeHTTP(w, httptest.NewRequest("GET", "/none", nil))
	if w.Code != http.StatusNotFound {
		t.Fatalf("code %d", w.Code)
	}
}
