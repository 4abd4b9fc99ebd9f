//go:build !unix

package eventlog

import "os"

// openLog opens a log for reading and checks that it is a regular file.
func openLog(path string) (*os.File, os.FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if err := checkRegular(path, st); err != nil {
		return nil, nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	if st, err = f.Stat(); err != nil {
		f.Close()
		return nil, nil, err
	}
	if err := checkRegular(path, st); err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}
