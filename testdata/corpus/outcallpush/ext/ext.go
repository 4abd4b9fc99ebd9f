// Package ext is a plugin of parse, outside the observed set.
package ext

import "example.com/outcallpush/parse"

// Strike pushes the delimiter at the start of each input.
type Strike struct{}

// Parse implements parse.Plugin.
func (Strike) Parse(c *parse.Context, at int, s string) {
	d := parse.Scan(s)
	d.Start = at
	c.Push(d)
}
