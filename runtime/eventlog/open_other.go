//go:build !unix

package eventlog

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// createFile creates the log file for writing: a new file (an existing log
// is never truncated), readable by its owner alone. There is no lock:
// Live always reports false here.
func createFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
}

func locked(path string) bool { return false }

func errExist(err error) bool { return errors.Is(err, fs.ErrExist) }

func errnoName(e syscall.Errno) string { return "" }
