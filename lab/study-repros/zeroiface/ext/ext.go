// Package ext makes zeroiface's processors of its own unexported,
// zero-size type, as goldmark's extension package does.
package ext

import (
	"strings"

	"example.com/repros/zeroiface"
)

type tilde struct{}

func (*tilde) CanOpenCloser(opener, closer *zeroiface.Delimiter) bool {
	return opener.Length == closer.Length
}

func (*tilde) OnMatch(consumes int) string { return strings.Repeat("~", consumes) }

// Tilde returns the processor of ~ delimiters.
func Tilde() zeroiface.Processor { return &tilde{} }
