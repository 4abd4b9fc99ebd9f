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

// chain applies middleware as a router does: external code calling the
// function values observed code returned.
func chain(h http.Handler, mws ...func(http.Handler) http.Handler) http.Handler {
	for i := len(mws) - 1; i >= 0; i-- {
		h = mws[i](h)
	}
	return h
}

func TestPrefixChain(t *testing.T) {
	var got []string
	h := chain(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.URL.Path)
	}), mw.Prefix("/api"), mw.Prefix("/v1"))
	for _, p := range []string{"/users", "/items/7"} {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", p, nil))
	}
	if len(got) != 2 || got[0] != "/v1/api/users" || got[1] != "/v1/api/items/7" {
		t.Errorf("paths = %q, want [/v1/api/users /v1/api/items/7]: the first middleware sees the request first", got)
	}
}

func TestForwarded(t *testing.T) {
	var got string
	h := mw.Forwarded(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.URL.Path
	}))
	r := httptest.NewRequest("GET", "/x", nil)
	r.Header.Add("X-Forwarded-For", "10.0.0.1")
	r.Header.Add("X-Forwarded-For", "10.0.0.2")
	h.ServeHTTP(httptest.NewRecorder(), r)
	if got != "/from/10.0.0.1/x" {
		t.Errorf("path = %q, want /from/10.0.0.1/x", got)
	}
}

func TestDefault(t *testing.T) {
	var got string
	h := mw.Default(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.URL.Path
	}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/docs/", nil))
	if got != "/docs" {
		t.Errorf("path = %q, want /docs", got)
	}
}
