package writercombo_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"example.com/repros/writercombo"
)

func TestTagServer(t *testing.T) {
	ts := httptest.NewServer(writercombo.Tag(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok")
	})))
	defer ts.Close()
	resp, err := http.Get(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if got := resp.Header.Get("X-Kind"); got != "flush,hijack,readfrom" {
		t.Errorf("X-Kind = %q", got)
	}
}

func TestTagRecorder(t *testing.T) {
	w := httptest.NewRecorder()
	writercombo.Tag(http.NotFoundHandler()).ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
	if got := w.Header().Get("X-Kind"); got != "flush" {
		t.Errorf("X-Kind = %q", got)
	}
}
