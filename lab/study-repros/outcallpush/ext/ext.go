// Package ext is a plugin of outcallpush, outside the observed set.
package ext

import "example.com/repros/outcallpush"

// Strike pushes the delimiter at the start of each input.
type Strike struct{}

// Parse implements outcallpush.Plugin.
func (Strike) Parse(c *outcallpush.Context, at int, s string) {
	d := outcallpush.Scan(s)
	d.Start = at
	c.Push(d)
}
