// Package compile gets its errors from diag unbound and completes them with
// diag's own methods, which write the error in place, before returning them
// or reading their fields. The error crosses by value (a type the code
// names in errors.As), so replay holds a copy of it that the methods,
// answered from the log, do not write: the log must hold what they wrote.
package compile

import (
	"errors"
	"strings"

	"example.com/errorbind/diag"
)

// Compile returns the number of lines of src, or diag's error bound to it.
func Compile(src string) (int, error) {
	if err := diag.Check(src); err != nil {
		var fe *diag.Error
		if errors.As(err, &fe) {
			if strings.HasPrefix(src, "#") {
				diag.Note(fe, "in a comment")
			}
			return 0, fe.Bind(src)
		}
		return 0, err
	}
	return strings.Count(src, "\n") + 1, nil
}

// Where returns the line and column of src's first error, 0 and 0 if none.
func Where(src string) (line, column int) {
	err := diag.Check(src)
	var fe *diag.Error
	if !errors.As(err, &fe) {
		return 0, 0
	}
	fe.Bind(src)
	return fe.Line, fe.Column
}
