// Package mapshare: observed code returns a map it keeps, and the caller
// writes it (goldmark's ast.Document.Meta, filled by the test with
// doc.Meta()["footnote-prefix"] = v and read back by the renderer).
package mapshare

// Document holds metadata.
type Document struct{ meta map[string]any }

// New returns a document without metadata.
func New() *Document { return &Document{} }

// Meta returns the document's own metadata map, made on first use.
func (d *Document) Meta() map[string]any {
	if d.meta == nil {
		d.meta = map[string]any{}
	}
	return d.meta
}

// Prefix is the metadata "prefix", or "" if it is not a string.
func (d *Document) Prefix() string {
	s, _ := d.meta["prefix"].(string)
	return s
}
