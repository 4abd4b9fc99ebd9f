// Command server serves many simulated requests through the observed svc
// package, as a service would over hours, with the flight recorder on.
// "server N panic" then sends the request that panics, which ends the
// process; "server N signal" sends itself SIGUSR1 halfway, waits for the
// dump the signal asks for, and ends normally; "server N dump" asks for
// a dump with probe.Dump halfway and ends normally; "server N gopanic"
// sends the request that panics to a goroutine of the observed package.
// "server N sigterm" handles SIGTERM itself (signal.Notify), sends it to
// itself halfway, waits for the dump, goes on to the end and says how
// often its handler got the signal; "server N sigterm-default" sends
// itself SIGTERM halfway without a handler of its own, and waits to be
// ended by it. "server N plain" just serves.
package main

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"example.com/flight/svc"
	"github.com/rules-capture/rules_capture/runtime/probe"
)

func main() {
	n, _ := strconv.Atoi(os.Args[1])
	mode := os.Args[2]
	paths := []string{"/", "/cart", "/pay", "/search"}
	var terms atomic.Int32
	if mode == "sigterm" {
		c := make(chan os.Signal, 4)
		signal.Notify(c, syscall.SIGTERM)
		go func() {
			for range c {
				terms.Add(1)
			}
		}()
	}
	for i := range n {
		svc.Handle("user"+strconv.Itoa(i%11), paths[i%len(paths)], i%17)
		if mode == "signal" && i == n/2 {
			dumpOnSignal(syscall.SIGUSR1)
		}
		if mode == "sigterm" && i == n/2 {
			dumpOnSignal(syscall.SIGTERM)
		}
		if mode == "sigterm-default" && i == n/2 {
			syscall.Kill(os.Getpid(), syscall.SIGTERM)
			time.Sleep(10 * time.Second)
			fmt.Println("not ended by SIGTERM")
		}
		if mode == "dump" && i == n/2 {
			paths, err := probe.Dump("asked by the server")
			fmt.Println("dumped", len(paths), "segments", err)
		}
	}
	fmt.Println(svc.Served(), "served")
	if mode == "sigterm" {
		time.Sleep(200 * time.Millisecond) // a signal sent again reaches the handler
		fmt.Println("SIGTERM handled", terms.Load(), "times")
	}
	switch mode {
	case "panic":
		fmt.Println(svc.Handle("nobody", "/crash", 0))
	case "gopanic":
		svc.HandleLater("nobody", "/crash", 0)
		time.Sleep(10 * time.Second) // the goroutine's panic ends the process first
	}
}

// dumpOnSignal sends sig to this process and waits until the flight
// recorder has written the dump's note (the log lies in CAPTURE_LOG's
// directory).
func dumpOnSignal(sig syscall.Signal) {
	syscall.Kill(os.Getpid(), sig)
	dir := filepath.Dir(os.Getenv("CAPTURE_LOG"))
	for range 500 {
		if m, _ := filepath.Glob(filepath.Join(dir, "*.dump-*", "DUMP")); len(m) > 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Println("no dump after", sig)
}
