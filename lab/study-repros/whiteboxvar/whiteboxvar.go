// Package whiteboxvar reproduces an in-package test that sets an
// unexported package-level variable the package's code reads: chi's
// middleware.TestRecoverer sets recovererErrorWriter to a buffer and
// checks what the Recoverer middleware wrote there.
package whiteboxvar

import (
	"fmt"
	"io"
	"os"
)

var errorWriter io.Writer = os.Stderr

// Report writes msg to the package's error writer and returns its length.
func Report(msg string) int {
	n, _ := fmt.Fprintf(errorWriter, "error: %s\n", msg)
	return n
}
