// Package route puts a request's route into its context and reads it back
// from the request that external code hands it again. The context is an
// outcall's result (context.WithValue: a *context.valueCtx, which replay
// stands in for with a placeholder there), and the same object crosses
// again with its contents inside the request of the callback, which the
// package's reflection over values from outside makes replay rebuild as
// itself.
package route

import (
	"context"
	"net/http"
	"reflect"
)

type ctxKey struct{ name string }

// Key is the context key Handle stores the route under.
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

// ContextType names the dynamic type of r's context, by reflection.
func ContextType(r *http.Request) string {
	return reflect.TypeOf(r.Context()).String()
}

// Same reports whether a and b are one function, by reflection.
func Same(a, b any) bool {
	return reflect.ValueOf(a).Pointer() == reflect.ValueOf(b).Pointer()
}
