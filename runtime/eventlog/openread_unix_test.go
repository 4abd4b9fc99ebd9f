//go:build unix

package eventlog

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestOpenRefusesSpecialFiles: a FIFO (which would block a reader until
// a writer comes), a device and a directory are refused at once.
func TestOpenRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "log.arrows")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, tc := range []struct{ path, want string }{
		{fifo, fifo + " is a named pipe (FIFO): an event log is a regular file (copy it to one first)"},
		{"/dev/null", "/dev/null is a device: an event log is a regular file"},
		{dir, dir + " is a directory: give the log files, or use a command that takes a folder"},
	} {
		done := make(chan error, 1)
		go func() {
			r, err := Open(tc.path)
			if err == nil {
				r.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Open(%s): err = %v, want %q", tc.path, err, tc.want)
			}
		case <-time.After(time.Second):
			t.Fatalf("Open(%s) still blocked after a second", tc.path)
		}
	}
}
