package mw_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"example.com/handlerfunc/mw"
)

func TestClean(t *testing.T) {
	var got string
	h := mw.Clean(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.URL.Path
	}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/a//b/../c", nil))
	if got != "/a/c" {
		t.Errorf("path = %q, want /a/c", got)
	}
}

func TestCleanOnAGoroutine(t *testing.T) {
	paths := make(chan string, 1)
	h := mw.Clean(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths <- r.URL.Path
	}))
	go h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/x/./y", nil))
	if got := <-paths; got != "/x/y" {
		t.Errorf("path = %q, want /x/y", got)
	}
}
