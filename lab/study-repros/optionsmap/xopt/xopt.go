// Package xopt holds options for optionsmap, outside the observed package
// (as goldmark's html.WithXHTML is for its renderer).
package xopt

import "example.com/repros/optionsmap"

type flag string

func (f flag) SetConfig(c *optionsmap.Config) { c.Options[string(f)] = true }

// With sets the option name.
func With(name string) optionsmap.Option { return flag(name) }

type step string

func (s step) SetConfig(c *optionsmap.Config) { c.Steps = append(c.Steps, string(s)) }

// Step adds a step.
func Step(name string) optionsmap.Option { return step(name) }
