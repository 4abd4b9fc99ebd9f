// Package knobs is external to the observed set: package-level settings and
// a server whose exported fields the observed code sets.
package knobs

import (
	"fmt"
	"time"
)

// Verbose and Level are settings other packages write.
var (
	Verbose bool
	Level   int
)

// Server is configured by writing its fields.
type Server struct {
	Addr    string
	Hits    int
	Timeout time.Duration
	Flags   uint
}

// NewServer returns a server with defaults.
func NewServer() *Server { return &Server{Addr: ":0", Timeout: time.Second} }

// Run reports how the server and the settings are configured.
func (s *Server) Run() string {
	return fmt.Sprintf("%s hits=%d timeout=%v flags=%b verbose=%v level=%d", s.Addr, s.Hits, s.Timeout, s.Flags, Verbose, Level)
}
