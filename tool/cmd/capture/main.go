// Command capture is the go-native front end of rules_capture: it builds
// capture variants, runs tests under capture, replays logs, and inspects,
// summarises and compacts event logs.
package main

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// A command is one subcommand of capture. Each lives in its own file and
// registers itself from init.
type command struct {
	summary string                  // one line for the usage text
	run     func(args []string) int // exit code
}

var commands = map[string]command{}

// stdio adapts a command written against its output streams, which its
// tests pass, to the process's.
func stdio(run func(args []string, stdout, stderr io.Writer) int) func(args []string) int {
	return func(args []string) int { return run(args, os.Stdout, os.Stderr) }
}

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

// chdirToUser makes relative paths mean what the user typed under `bazel run`,
// which starts the command in its runfiles tree and names the user's working
// directory in BUILD_WORKING_DIRECTORY (Gazelle and buildifier do the same).
func chdirToUser() error {
	wd := os.Getenv("BUILD_WORKING_DIRECTORY")
	if wd == "" {
		return nil
	}
	if err := os.Chdir(wd); err != nil {
		return fmt.Errorf("cannot change to the directory bazel run was started in (BUILD_WORKING_DIRECTORY): %v", err)
	}
	return nil
}

func main() {
	if len(os.Args) < 2 || os.Args[1] == "-h" || os.Args[1] == "help" || os.Args[1] == "--help" {
		usage()
		os.Exit(2)
	}
	if err := chdirToUser(); err != nil {
		fmt.Fprintln(os.Stderr, "capture:", err)
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

// A logArg is one log that a command reading logs was given, directly or
// as part of a folder: a path to read, or why it cannot be read.
type logArg struct {
	path string
	err  error // refused before opening: missing, special file, empty folder
}

// expandLogs turns the arguments of replay, inspect, stats and verify into
// logs: a folder stands for every *.arrow file below it (sorted), anything
// else for itself. Nothing is opened: only regular files (symbolic links to
// them included) are kept, and a named pipe, device or socket is refused at
// once, since opening one can block for ever. A problem with one argument
// is returned in its place, so that the command reports it and goes on with
// the others.
func expandLogs(args []string) []logArg {
	var out []logArg
	for _, a := range args {
		fi, err := os.Stat(a) // follows links; opens nothing
		switch {
		case err != nil:
			out = append(out, logArg{a, err})
		case fi.IsDir():
			out = append(out, logsBelow(a)...)
		case !fi.Mode().IsRegular():
			out = append(out, logArg{a, notRegular(a, fi.Mode())})
		default:
			out = append(out, logArg{path: a})
		}
	}
	return out
}

// logsBelow lists the *.arrow files below dir, sorted; a folder holding
// none is an error (a mistyped folder must not pass as "nothing failed").
func logsBelow(dir string) []logArg {
	var logs []logArg
	walkErr := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == dir {
				return err
			}
			logs = append(logs, logArg{path, err}) // an unreadable subfolder
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(d.Name(), ".arrow") {
			return nil
		}
		mode := d.Type()
		if mode&fs.ModeSymlink != 0 {
			fi, err := os.Stat(path)
			if err != nil {
				logs = append(logs, logArg{path, err})
				return nil
			}
			mode = fi.Mode()
		}
		if !mode.IsRegular() {
			logs = append(logs, logArg{path, notRegular(path, mode)})
			return nil
		}
		logs = append(logs, logArg{path: path})
		return nil
	})
	if walkErr != nil {
		return []logArg{{dir, walkErr}}
	}
	if len(logs) == 0 {
		return []logArg{{dir, fmt.Errorf("%s: folder holds no *.arrow logs", dir)}}
	}
	sort.Slice(logs, func(i, j int) bool { return logs[i].path < logs[j].path })
	return logs
}

func notRegular(path string, mode fs.FileMode) error {
	what := "not a regular file (" + mode.Type().String() + ")"
	switch {
	case mode&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO), not a log file"
	case mode&fs.ModeSocket != 0:
		what = "a socket, not a log file"
	case mode&fs.ModeDevice != 0:
		what = "a device, not a log file"
	}
	return fmt.Errorf("%s: %s: refused", path, what)
}

// errText is err's text without a leading "path: " that the caller prints
// already.
func errText(path string, err error) string {
	s := err.Error()
	return strings.TrimPrefix(s, path+": ")
}

// parseLogFlags parses the flags of a command that reads logs, whose usage
// line (and what follows it) is usage: false, the usage printed where the
// user should see it, if the command is to exit with code 2 (a bad flag,
// or no log named).
func parseLogFlags(fs *flag.FlagSet, args []string, stderr io.Writer, usage string) bool {
	fs.Usage = func() {
		fmt.Fprintln(stderr, usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return false
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return false
	}
	return true
}

// tallyLogs runs do on each log in turn and counts the ones that fail: a
// log refused before opening (see expandLogs) or one do returns an error
// for is handed to failed, which reports it and says why for the summary
// line. The caller ends with the tally's finish.
func tallyLogs(logs []logArg, do func(path string) error, failed func(path string, err error) (why string)) *logTally {
	tally := &logTally{}
	for _, a := range logs {
		err := a.err
		if err == nil {
			err = do(a.path)
		}
		if err != nil {
			tally.fail(a.path, failed(a.path, err))
			continue
		}
		tally.ok()
	}
	return tally
}

// logTally counts a command's logs and the ones that failed, for the
// summary line that ends a run with failures.
type logTally struct {
	total  int
	failed []string // "path (why)"
}

func (t *logTally) ok() { t.total++ }

func (t *logTally) fail(path, why string) {
	t.total++
	t.failed = append(t.failed, fmt.Sprintf("%s (%s)", path, why))
}

// finish prints "2 of 14 logs failed: ..." if any did, and returns the
// exit code: 1 if any failed.
func (t *logTally) finish(w io.Writer, cmd string) int {
	if len(t.failed) == 0 {
		return 0
	}
	noun := "logs"
	if t.total == 1 {
		noun = "log"
	}
	fmt.Fprintf(w, "%s: %d of %d %s failed: %s\n", cmd, len(t.failed), t.total, noun, strings.Join(t.failed, ", "))
	return 1
}
