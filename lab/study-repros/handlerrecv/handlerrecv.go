// Package handlerrecv: a router as chi's Mux writes it. The router serves
// through a field holding http.HandlerFunc(m.route), a method value of the
// observed set in an external function type, called as an interface method
// (m.handler.ServeHTTP): the external method ServeHTTP calls the observed
// method value back. route asks the routing tree, an exported method of an
// unexported type, for the handler, which for a mounted router is a
// closure of the set in an http.Handler.
package handlerrecv

import (
	"net/http"
	"strings"
)

// Mux routes requests by exact path; mounted routers get the rest.
type Mux struct {
	tree    *node
	handler http.Handler
}

type node struct {
	routes map[string]http.Handler
}

// Find returns the handler of path, or nil.
func (n *node) Find(path string) http.Handler {
	for prefix, h := range n.routes {
		if path == prefix || strings.HasSuffix(prefix, "/") && strings.HasPrefix(path, prefix) {
			return h
		}
	}
	return nil
}

// New returns an empty router.
func New() *Mux {
	m := &Mux{tree: &node{routes: map[string]http.Handler{}}}
	m.handler = http.HandlerFunc(m.route)
	return m
}

// ServeHTTP routes r.
func (m *Mux) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m.handler.ServeHTTP(w, r)
}

func (m *Mux) route(w http.ResponseWriter, r *http.Request) {
	h := m.tree.Find(r.URL.Path)
	if h == nil {
		http.NotFound(w, r)
		return
	}
	h.ServeHTTP(w, r)
}

// Handle serves path with h.
func (m *Mux) Handle(path string, h http.Handler) { m.tree.routes[path] = h }

// Mount serves every path under prefix with sub, which sees the path
// without prefix.
func (m *Mux) Mount(prefix string, sub http.Handler) {
	m.tree.routes[prefix+"/"] = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.URL.Path = strings.TrimPrefix(r.URL.Path, prefix)
		sub.ServeHTTP(w, r)
	})
}
