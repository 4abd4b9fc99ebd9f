// Package fsopen: observed code opens a file of an fs.FS from outside
// (toml's DecodeFS with a testing/fstest.MapFS). fs.FS.Open returns an
// fs.File whose dynamic type is unexported in testing/fstest
// (*fstest.openMapFile) and a nil error: replay once
// decoded the nil error as the file's contents.
package fsopen

import (
	"io"
	"io/fs"
)

// ReadFile returns the contents of name in fsys.
func ReadFile(fsys fs.FS, name string) (string, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	return string(b), err
}
