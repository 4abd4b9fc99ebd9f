// Command server serves many simulated requests through the observed svc
// package, as a service would over hours, with the flight recorder on.
// "server N panic" then sends the request that panics, which ends the
// process; "server N signal" sends itself SIGUSR1 halfway, waits for the
// dump the signal asks for, and ends normally; "server N dump" asks for
// a dump with probe.Dump halfway and ends normally; "server N gopanic"
// sends the request that panics to a goroutine of the observed package.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"example.com/flight/svc"
	"github.com/rules-capture/rules_capture/runtime/probe"
)

func main() {
	n, _ := strconv.Atoi(os.Args[1])
	mode := os.Args[2]
	paths := []string{"/", "/cart", "/pay", "/search"}
	for i := range n {
		svc.Handle("user"+strconv.Itoa(i%11), paths[i%len(paths)], i%17)
		if mode == "signal" && i == n/2 {
			dumpOnSignal()
		}
		if mode == "dump" && i == n/2 {
			paths, err := probe.Dump("asked by the server")
			fmt.Println("dumped", len(paths), "segments", err)
		}
	}
	fmt.Println(svc.Served(), "served")
	switch mode {
	case "panic":
		fmt.Println(svc.Handle("nobody", "/crash", 0))
	case "gopanic":
		svc.HandleLater("nobody", "/crash", 0)
		time.Sleep(10 * time.Second) // the goroutine's panic ends the process first
	}
}

// dumpOnSignal sends SIGUSR1 to this process and waits until the flight
// recorder has written the dump's note (the log lies in CAPTURE_LOG's
// directory).
func dumpOnSignal() {
	syscall.Kill(os.Getpid(), syscall.SIGUSR1)
	dir := filepath.Dir(os.Getenv("CAPTURE_LOG"))
	for range 500 {
		if m, _ := filepath.Glob(filepath.Join(dir, "*.dump-*", "DUMP")); len(m) > 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Println("no dump after SIGUSR1")
}
