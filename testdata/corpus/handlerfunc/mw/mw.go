// Package mw is middleware: an exported function returns an observed
// closure as an http.HandlerFunc inside an http.Handler, and external code
// serves requests with it (on the test's goroutine or one of its own), so
// observed code runs with no incall enclosing it: its calls are callbacks.
package mw

import (
	"net/http"
	"path"
	"strings"
)

// Clean returns a handler that cleans the request's path and serves next.
func Clean(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.URL.Path = path.Clean(r.URL.Path)
		next.ServeHTTP(w, r)
	})
}

// Prefix returns middleware, as routers take it: the router calls it with
// the next handler (a callback of the function value Prefix returned), and
// serves requests with the handler it returns (a callback of that one).
func Prefix(p string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			r.URL.Path = path.Join(p, r.URL.Path)
			next.ServeHTTP(w, r)
		})
	}
}

// Forwarded returns a handler that serves next under the path of the
// request's first X-Forwarded-For entry: it indexes the request's header
// map, a map field of an external struct, and only reads the entry.
func Forwarded(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if v := first(r.Header["X-Forwarded-For"]); v != "" {
			r.URL.Path = path.Join("/from", v, r.URL.Path)
		}
		next.ServeHTTP(w, r)
	})
}

func first(vs []string) string {
	if len(vs) == 0 {
		return ""
	}
	return vs[0]
}

// Default is the middleware most callers use, made when the package
// initialises: external code calls the function value the variable holds,
// and the handler it returns.
var Default = Trim("/")

// Trim returns middleware that trims suffix from request paths.
func Trim(suffix string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			r.URL.Path = strings.TrimSuffix(r.URL.Path, suffix)
			next.ServeHTTP(w, r)
		})
	}
}
