// Package parse hands each input to a plugin, which scans a delimiter
// with the package's own Scan, sets the delimiter's position itself and
// pushes it back through the context's method (goldmark's inline parsers:
// parser.ScanDelimiter, node.Segment = ..., pc.PushDelimiter(node)). No
// function value of this package ever reaches the plugin.
package parse

import (
	"strconv"
	"strings"
)

// Delim is a run of one delimiter character.
type Delim struct {
	Start int // where the run starts; the plugin sets it
	Len   int
}

// Scan returns the delimiter at the start of s.
func Scan(s string) *Delim {
	n := 0
	for n < len(s) && s[n] == s[0] {
		n++
	}
	return &Delim{Len: n}
}

// Context collects the delimiters a plugin pushes.
type Context struct{ ds []*Delim }

// Push adds d.
func (c *Context) Push(d *Delim) { c.ds = append(c.ds, d) }

// Plugin parses one input.
type Plugin interface {
	Parse(c *Context, at int, s string)
}

// Run hands each of inputs to p and lists the delimiters it pushed.
func Run(p Plugin, inputs ...string) string {
	c := &Context{}
	at := 0
	for _, s := range inputs {
		p.Parse(c, at, s)
		at += len(s)
	}
	var b strings.Builder
	for _, d := range c.ds {
		b.WriteString(strconv.Itoa(d.Start) + ":" + strconv.Itoa(d.Len) + ";")
	}
	return b.String()
}
