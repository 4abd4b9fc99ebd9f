// Package api is the observed set: its handlers are method values that
// net/http calls back on the server's goroutines (as the shop's api).
package api

import (
	"fmt"
	"net/http"
)

// Server counts the greetings it served.
type Server struct{ hits int }

func (s *Server) hello(w http.ResponseWriter, r *http.Request) {
	s.hits++
	name := r.URL.Query().Get("name")
	if name == "" {
		http.Error(w, "no name", http.StatusBadRequest)
		return
	}
	fmt.Fprintf(w, "hello %s #%d", name, s.hits)
}

// Routes returns the server's routes.
func Routes(s *Server) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/hello", s.hello)
	return mux
}
