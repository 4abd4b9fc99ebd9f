// Package mw is middleware: an exported function returns an observed
// closure as an http.HandlerFunc inside an http.Handler, and external code
// serves requests with it (on the test's goroutine or one of its own), so
// observed code runs with no incall enclosing it: its calls are callbacks.
package mw

import (
	"net/http"
	"path"
)

// Clean returns a handler that cleans the request's path and serves next.
func Clean(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.URL.Path = path.Clean(r.URL.Path)
		next.ServeHTTP(w, r)
	})
}
