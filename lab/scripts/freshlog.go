//go:build ignore

// freshlog writes one short log in a fresh process (Create, $N events,
// Close) and prints the process CPU time (getrusage, all threads) of each
// phase and in total: the log's own start-up cost, lab/evaluation.md,
// "Capture overhead: where it goes". COMP=none writes it uncompressed.
//
//	go build -o /tmp/freshlog lab/scripts/freshlog.go
//	for i in $(seq 101); do N=300 /tmp/freshlog /tmp/f.arrows; done
package main

import (
	"encoding/binary"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func main() {
	c0 := cpu()
	n, _ := strconv.Atoi(os.Getenv("N"))
	if os.Getenv("MODE") == "none" {
		fmt.Println(cpu() - c0)
		return
	}
	w, err := eventlog.Create(os.Args[1], eventlog.Meta{ObservedPackages: []string{"github.com/Masterminds/semver/v3"}}, opts())
	if err != nil {
		panic(err)
	}
	c1 := cpu()
	kinds := []eventlog.Kind{eventlog.KindCallIn, eventlog.KindCallOut, eventlog.KindReturnOut, eventlog.KindReturnIn}
	var v [20]byte
	for i := 0; i < n; i++ {
		k := binary.PutUvarint(v[:], uint64(i%100))
		e := eventlog.Event{Kind: kinds[i%4], Parent: uint64(i / 2), Site: sites[i%len(sites)], Pos: pos[i%len(pos)], Values: v[:k]}
		w.Append(&e)
	}
	c2 := cpu()
	if err := w.Close(); err != nil {
		panic(err)
	}
	c3 := cpu()
	fmt.Println(c1-c0, c2-c1, c3-c2, c3-c0)
}

var sites, pos []string

func init() {
	for i := 0; i < 30; i++ {
		sites = append(sites, fmt.Sprintf("github.com/Masterminds/semver/v3.Func%d", i))
		pos = append(pos, fmt.Sprintf("semver/version.go:%d", 10+i))
	}
}

func opts() eventlog.Options {
	if os.Getenv("COMP") == "none" {
		return eventlog.Options{Compression: eventlog.Uncompressed}
	}
	return eventlog.Options{}
}
