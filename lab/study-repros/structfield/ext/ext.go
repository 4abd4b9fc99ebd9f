// Package ext is a parser outside the observed set (go-toml's unstable): its
// nodes hold their span as a struct value.
package ext

import "strings"

// Range is a span of a document (unstable.Range).
type Range struct{ Offset, Length int }

// Node is a parsed element (unstable.Node).
type Node struct {
	Kind int
	Raw  Range
}

// Find returns the node of word's first occurrence in doc.
func Find(doc, word string) *Node {
	return &Node{Kind: 1, Raw: Range{strings.Index(doc, word), len(word)}}
}
