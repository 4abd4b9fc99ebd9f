package httpbody_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"example.com/repros/httpbody"
)

func TestFetch(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello") }))
	defer srv.Close()
	got, err := httpbody.Fetch(&http.Client{Timeout: 5 * time.Second}, srv.URL)
	if err != nil || got != "hello" {
		t.Fatalf("Fetch = %q, %v", got, err)
	}
}
