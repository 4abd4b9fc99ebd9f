//go:build !unix

package eventlog

import "os"

// createFile creates (or truncates) the log file for writing.
func createFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
}
