// Package ext is the external code of typederrorwrite: an error type
// whose method completes the error in place, as expr's file.Error.Bind.
package ext

import "fmt"

// Error is a compile error that Bind completes with its line and snippet.
type Error struct {
	From    int
	Line    int
	Snippet string
	Message string
}

func (e *Error) Error() string { return fmt.Sprintf("%s (%d) %s", e.Message, e.Line, e.Snippet) }

// Bind fills in the line and the snippet from the source, and returns e.
func (e *Error) Bind(src string) *Error {
	e.Line = 1
	e.Snippet = src[:e.From]
	return e
}

// Optimize fails on long input with an Error not yet bound.
func Optimize(s string) error {
	if len(s) > 3 {
		return &Error{From: 2, Message: "too long"}
	}
	return nil
}
