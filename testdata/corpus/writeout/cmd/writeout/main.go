// Command writeout drives the tune package.
package main

import (
	"fmt"

	"example.com/writeout/knobs"
	"example.com/writeout/tune"
)

func main() {
	srv := knobs.NewServer()
	srv.Hits = 5
	srv.Flags = 3
	fmt.Println(tune.Configure(srv, "localhost:8080", true))
	fmt.Println(tune.Fresh(":9090"))
	fmt.Println(srv.Addr, srv.Hits, knobs.Level)
}
