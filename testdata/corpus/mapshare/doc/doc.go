// Package doc keeps maps that it hands to its callers to fill: a
// document's metadata (an interface-valued map, made on first use) and a
// counter's table of plain values, both read back by later calls.
package doc

import (
	"slices"
	"strings"
)

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

// Describe lists the metadata's keys and string values in key order.
func (d *Document) Describe() string {
	keys := make([]string, 0, len(d.meta))
	for k := range d.meta {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		s, _ := d.meta[k].(string)
		b.WriteString(k + "=" + s + ";")
	}
	return b.String()
}

// Counter counts words.
type Counter struct{ n map[string]int }

// NewCounter returns a counter of no words.
func NewCounter() *Counter { return &Counter{n: map[string]int{}} }

// Table returns the counter's own table.
func (c *Counter) Table() map[string]int { return c.n }

// Add counts the words of s.
func (c *Counter) Add(s string) {
	for _, w := range strings.Fields(s) {
		c.n[w]++
	}
}

// Total is the number of words counted.
func (c *Counter) Total() int {
	t := 0
	for _, v := range c.n {
		t += v
	}
	return t
}
