// Command capture is the go-native front end of rules_capture: it builds
// capture variants, runs tests under capture, replays logs, and inspects,
// summarises and compacts event logs.
package main

import (
	"fmt"
	"os"
	"sort"
)

// A command is one subcommand of capture. Each lives in its own file and
// registers itself from init.
type command struct {
	summary string                  // one line for the usage text
	run     func(args []string) int // exit code
}

var commands = map[string]command{}

func register(name string, c command) {
	if _, dup := commands[name]; dup {
		panic("capture: duplicate command " + name)
	}
	commands[name] = c
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: capture <command> [arguments]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(os.Stderr, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(os.Stderr, "\nRun 'capture <command> -h' for the command's flags.")
}

func main() {
	if len(os.Args) < 2 || os.Args[1] == "-h" || os.Args[1] == "help" || os.Args[1] == "--help" {
		usage()
		os.Exit(2)
	}
	c, ok := commands[os.Args[1]]
	if !ok {
		fmt.Fprintf(os.Stderr, "capture: unknown command %q\n", os.Args[1])
		usage()
		os.Exit(2)
	}
	os.Exit(c.run(os.Args[2:]))
}
