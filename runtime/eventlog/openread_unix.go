//go:build unix

package eventlog

import (
	"os"
	"syscall"
)

// openLog opens a log for reading without blocking: opening a FIFO for
// reading waits for a writer, so it is opened with O_NONBLOCK (which a
// regular file ignores) and then checked with fstat, on the descriptor that
// will be read, so that a file swapped in between cannot slip through.
// Like createFile, it keeps the descriptor out of the runtime's poller.
func openLog(path string) (*os.File, os.FileInfo, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	if err := syscall.SetNonblock(fd, false); err != nil {
		syscall.Close(fd)
		return nil, nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(fd), path)
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if err := checkRegular(path, st); err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}
