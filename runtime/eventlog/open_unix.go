//go:build unix

package eventlog

import (
	"os"
	"syscall"
)

// createFile creates (or truncates) the log file for writing. os.OpenFile
// would offer the descriptor to the runtime's network poller, which cannot
// poll a regular file but is initialised by the attempt: an epoll instance,
// an eventfd, four fcntl calls, and from then on idle threads of the
// process wait in epoll_pwait. A short capture process (one test under
// capture test) paid that at start-up for nothing; os.NewFile keeps the
// descriptor blocking and out of the poller, as the writes want.
func createFile(path string) (*os.File, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_CREAT|syscall.O_TRUNC|syscall.O_WRONLY|syscall.O_CLOEXEC, 0o644)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		return os.NewFile(uintptr(fd), path), nil
	}
}
