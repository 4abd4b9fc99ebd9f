// Package reexec reproduces a fault the study found (the shop's
// shop.TestBadFlagsExitWithUsage with examples/shop/api and
// examples/shop/inventory observed: "corrupt event log"): a test
// that runs its own test binary again as a child process (os.Args[0], to
// run main without the go command, as examples/shop's tests do). The child
// inherits the environment, CAPTURE_LOG included, and is a capture build
// of the same observed set: it created the parent's log again (truncating
// it) and wrote its own events into it while the parent went on writing at
// its own offsets, so the test's log was a mix of both: here a 280-400 KB
// file (the child's 40,000 events) of which replay read the parent's 102
// behind the child's header; corrupt when the two headers differ in length
// (examples: "corrupt event log at offset 2336"). Since the fix the child
// captures nothing and says so on its standard error; the log is the
// parent's alone (10 KB).
package reexec

// Greet is an incall.
func Greet(name string) string { return "hello " + name }
