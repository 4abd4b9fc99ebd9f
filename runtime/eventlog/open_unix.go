//go:build unix

package eventlog

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// createFile creates the log file for writing: a new file (O_EXCL: an
// existing log is never truncated, and a symbolic link planted at the path
// is not followed, wherever it points), readable by its owner alone, and
// locked for the writer's life (flock, released when the process ends,
// however it ends) before anything is written to it, so that a log with
// content and no lock has no live writer (Live).
//
// os.OpenFile would offer the descriptor to the runtime's network poller,
// which cannot poll a regular file but is initialised by the attempt: an
// epoll instance, an eventfd, four fcntl calls, and from then on idle
// threads of the process wait in epoll_pwait. A short capture process (one
// test under capture test) paid that at start-up for nothing; os.NewFile
// keeps the descriptor blocking and out of the poller, as the writes want.
func createFile(path string) (*os.File, error) {
	fd, err := openRetry(path, syscall.O_CREAT|syscall.O_EXCL|syscall.O_NOFOLLOW|syscall.O_WRONLY|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, &os.PathError{Op: "create", Path: path, Err: err}
	}
	if err := flockRetry(fd, syscall.LOCK_EX|syscall.LOCK_NB); err == syscall.EWOULDBLOCK {
		// Someone locked the file between its creation and now: not ours
		// to write after all.
		syscall.Close(fd)
		return nil, &os.PathError{Op: "lock", Path: path, Err: err}
	}
	// Other errors (a file system without locks) leave the log unlocked:
	// O_EXCL alone keeps a second writer out.
	return os.NewFile(uintptr(fd), path), nil
}

func openRetry(path string, mode int, perm uint32) (int, error) {
	for {
		fd, err := syscall.Open(path, mode, perm)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

func flockRetry(fd, how int) error {
	for {
		err := syscall.Flock(fd, how)
		if err != syscall.EINTR {
			return err
		}
	}
}

// locked reports whether a live process holds the writer's lock on the
// file at path (false if there is no such file, or it cannot be opened).
func locked(path string) bool {
	// O_NONBLOCK: a FIFO planted at the path must not hang the caller.
	fd, err := openRetry(path, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer syscall.Close(fd)
	return flockRetry(fd, syscall.LOCK_SH|syscall.LOCK_NB) == syscall.EWOULDBLOCK
}

// errExist reports whether err says that the file existed (ELOOP: a
// symbolic link, which O_NOFOLLOW refused).
func errExist(err error) bool {
	return errors.Is(err, fs.ErrExist) || errors.Is(err, syscall.ELOOP)
}

// errnoName is the symbolic name of the errors a log's writes meet, for
// its status ("" for others).
func errnoName(e syscall.Errno) string {
	switch e {
	case syscall.ENOSPC:
		return "ENOSPC"
	case syscall.EDQUOT:
		return "EDQUOT"
	case syscall.EIO:
		return "EIO"
	case syscall.EFBIG:
		return "EFBIG"
	case syscall.EROFS:
		return "EROFS"
	case syscall.EBADF:
		return "EBADF"
	case syscall.EINVAL:
		return "EINVAL"
	case syscall.ENXIO:
		return "ENXIO"
	case syscall.EPERM:
		return "EPERM"
	case syscall.EACCES:
		return "EACCES"
	case syscall.ESTALE:
		return "ESTALE"
	case syscall.EAGAIN:
		return "EAGAIN"
	case syscall.EINTR:
		return "EINTR"
	}
	return ""
}
