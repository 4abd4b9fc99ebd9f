// Package ctxrealize: observed code that reflects over values from outside
// puts a value into a request's context, as chi's Mux.ServeHTTP does
// (context.WithValue, an outcall whose result is a *context.valueCtx that
// replay does not rebuild as itself there: a placeholder of
// context.Context stands in), and hands the request on to external code,
// which calls back into the package with it. The callback's *http.Request
// is recorded deeply (the package reflects), so its context is the same
// object again, now as a *context.valueCtx with its contents.
package ctxrealize

import (
	"context"
	"net/http"
	"reflect"
)

type ctxKey struct{ name string }

// Key is the context key Handle stores under.
var Key = &ctxKey{"route"}

// Handle stores route in r's context and serves the request with h.
func Handle(h http.Handler, w http.ResponseWriter, r *http.Request, route string) {
	ctx := context.WithValue(r.Context(), Key, route)
	h.ServeHTTP(w, r.WithContext(ctx))
}

// Route returns the route Handle stored in r's context.
func Route(r *http.Request) string {
	s, _ := r.Context().Value(Key).(string)
	return s
}

// Same reports whether a and b are one function, by reflection (chi's
// tree.go compares handlers so).
func Same(a, b any) bool {
	return reflect.ValueOf(a).Pointer() == reflect.ValueOf(b).Pointer()
}
