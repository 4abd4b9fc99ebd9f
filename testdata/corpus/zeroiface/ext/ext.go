// Package ext makes delim's processors of its own unexported, zero-size
// types, which replay cannot name: they stand in by placeholders.
package ext

import (
	"strings"

	"example.com/zeroiface/delim"
)

type tilde struct{}

func (*tilde) CanOpenCloser(opener, closer *delim.Delimiter) bool {
	return opener.Length == closer.Length
}

func (*tilde) OnMatch(consumes int) string { return strings.Repeat("~", consumes) }

type star struct{}

func (*star) CanOpenCloser(opener, closer *delim.Delimiter) bool { return true }

func (*star) OnMatch(consumes int) string { return strings.Repeat("*", consumes) }

// Tilde returns the processor of ~ delimiters.
func Tilde() delim.Processor { return &tilde{} }

// Star returns the processor of * delimiters.
func Star() delim.Processor { return &star{} }
