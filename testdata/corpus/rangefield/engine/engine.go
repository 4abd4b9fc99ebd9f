// Package engine ranges over map and slice fields of a configuration that
// another package makes. In replay the configuration is a placeholder,
// whose fields mean nothing: each range expression must be read from the
// log, as an indexed field is.
package engine

import "example.com/rangefield/cfg"

// Enabled returns the builtins left, in order, once all of them (if all)
// and those named are disabled.
func Enabled(all bool, disable ...string) []string {
	c := cfg.New()
	if all {
		for name := range c.Builtins {
			c.Disabled[name] = true
		}
	}
	for _, n := range disable {
		c.Disabled[n] = true
	}
	for name := range c.Disabled {
		delete(c.Builtins, name)
	}
	var names []string
	for _, n := range c.Names {
		if _, ok := c.Builtins[n]; ok {
			names = append(names, n)
		}
	}
	return names
}
