// Package router reflects over values from outside (it compares handlers
// with reflect.ValueOf, as chi does), so the *http.Request its incalls take
// is recorded with its contents and rebuilt in replay; the request's
// method calls are outcalls after which its memory is recorded again. A
// request with a strings.Reader body holds, in Body, io.NopCloser's value
// for a reader that is also an io.WriterTo, of the unexported type
// io.nopCloserWriterTo, for which no stand-in of io.ReadCloser is
// generated: replay rebuilds it as that type.
package router

import (
	"net/http"
	"reflect"
)

// Router routes requests by path.
type Router struct {
	routes map[string]http.Handler
}

// New returns an empty router.
func New() *Router { return &Router{routes: map[string]http.Handler{}} }

// Handle routes path to h; routing the same handler again reports false.
func (rt *Router) Handle(path string, h http.Handler) bool {
	if old, ok := rt.routes[path]; ok && sameHandler(old, h) {
		return false
	}
	rt.routes[path] = h
	return true
}

// Describe names the route r takes: its method and path, with "live" when
// its context is not done yet, or "none" for a path no handler serves.
func (rt *Router) Describe(r *http.Request) string {
	state := "live"
	if r.Context().Err() != nil {
		state = "done"
	}
	if _, ok := rt.routes[r.URL.Path]; !ok {
		return "none"
	}
	return r.Method + " " + r.URL.Path + " " + state
}

// ServeHTTP calls the handler of the request's path.
func (rt *Router) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h, ok := rt.routes[r.URL.Path]
	if !ok || r.Context().Err() != nil {
		http.NotFound(w, r)
		return
	}
	h.ServeHTTP(w, r)
}

// sameHandler reports whether a and b are one handler (functions compare
// by code pointer).
func sameHandler(a, b http.Handler) bool {
	av, bv := reflect.ValueOf(a), reflect.ValueOf(b)
	if av.Type() != bv.Type() {
		return false
	}
	if av.Kind() == reflect.Func {
		return av.Pointer() == bv.Pointer()
	}
	return av.Type().Comparable() && a == b
}
