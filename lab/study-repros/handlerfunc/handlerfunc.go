// Package handlerfunc: middleware as chi's middleware package writes it.
// An exported function returns an observed closure converted to an
// external function type (http.HandlerFunc) inside an interface
// (http.Handler), and external code serves requests with it, on its own
// goroutine or on the test's: observed code runs with no incall enclosing
// it, and writes the request (a WRITE_OUT) before it calls out.
package handlerfunc

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
