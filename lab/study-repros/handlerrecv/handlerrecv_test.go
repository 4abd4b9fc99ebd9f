package handlerrecv_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"example.com/repros/handlerrecv"
)

func TestMount(t *testing.T) {
	inner := handlerrecv.New()
	inner.Handle("/x", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "inner "+r.URL.Path)
	}))
	outer := handlerrecv.New()
	outer.Mount("/a", inner)
	for _, c := range []struct{ path, want string }{{"/a/x", "inner /x"}, {"/b", "404 page not found\n"}} {
		w := httptest.NewRecorder()
		outer.ServeHTTP(w, httptest.NewRequest("GET", c.path, nil))
		if got := w.Body.String(); got != c.want {
			t.Errorf("GET %s = %q, want %q", c.path, got, c.want)
		}
	}
}

func TestMountServer(t *testing.T) {
	inner := handlerrecv.New()
	inner.Handle("/x", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "inner "+r.URL.Path)
	}))
	outer := handlerrecv.New()
	outer.Mount("/a", inner)
	ts := httptest.NewServer(outer)
	defer ts.Close()
	resp, err := http.Get(ts.URL + "/a/x")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if string(body) != "inner /x" {
		t.Errorf("body = %q", body)
	}
}
