// Package tune is the observed package of the writeout corpus program: it
// writes fields of an external struct through a pointer and variables of
// another package (WRITE_OUT), including compound assignments and ++ whose
// old value is read from outside (READ_OUT).
package tune

import (
	"time"

	"example.com/writeout/knobs"
)

// The package's initialisation sets another package's variable: a WRITE_OUT
// of stream 0, before any incall.
func init() { knobs.Level = 1 }

// Configure sets up srv for addr and returns what the server reports.
func Configure(srv *knobs.Server, addr string, debug bool) string {
	srv.Addr = addr
	srv.Timeout = 3 * time.Second
	srv.Hits++
	srv.Hits += 10
	srv.Flags <<= 2
	knobs.Verbose = debug
	knobs.Level += 2
	return srv.Run()
}

// Fresh makes a server of its own and configures it.
func Fresh(addr string) string {
	srv := knobs.NewServer()
	srv.Flags = 1
	return Configure(srv, addr, false)
}
