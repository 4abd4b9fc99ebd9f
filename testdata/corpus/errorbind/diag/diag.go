// Package diag is the external code of errorbind: a compile error that its
// own methods complete in place once the caller knows the source, as expr's
// file.Error.Bind.
package diag

import (
	"fmt"
	"strings"
)

// Error is a compile error at an offset of the source; Bind fills in its
// line, column and snippet.
type Error struct {
	From    int
	Line    int
	Column  int
	Snippet string
	Message string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s (%d:%d) %q", e.Message, e.Line, e.Column, e.Snippet)
}

// Bind fills in the line, the column (one-based) and the line's text from
// the source, and returns e.
func (e *Error) Bind(src string) *Error {
	before := src[:e.From]
	e.Line = strings.Count(before, "\n") + 1
	start := strings.LastIndexByte(before, '\n') + 1
	e.Column = e.From - start + 1
	line := src[start:]
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	e.Snippet = line
	return e
}

// Note appends a note to e's message.
func Note(e *Error, note string) {
	e.Message += " (" + note + ")"
}

// Check fails at the first '!' of s with an Error not yet bound.
func Check(s string) error {
	if i := strings.IndexByte(s, '!'); i >= 0 {
		return &Error{From: i, Message: "unexpected '!'"}
	}
	return nil
}
