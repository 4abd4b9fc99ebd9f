// Package structfield reads a field of a struct held by value in an
// external node (go-toml's `expr.Raw.Offset + expr.Raw.Length` on an
// *unstable.Node in rawValue).
package structfield

import "example.com/repros/structfield/ext"

// Word returns the text of word's node in doc.
func Word(doc, word string) string {
	n := ext.Find(doc, word)
	return doc[n.Raw.Offset : n.Raw.Offset+n.Raw.Length]
}
