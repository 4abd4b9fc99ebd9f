// Package opts holds options for render, outside the observed package
// (as goldmark's html.WithXHTML is for its renderer).
package opts

import "example.com/optionsmap/render"

type flag string

func (f flag) SetConfig(c *render.Config) { c.Options[string(f)] = true }

// With sets the option name.
func With(name string) render.Option { return flag(name) }

type step string

func (s step) SetConfig(c *render.Config) { c.Steps = append(c.Steps, string(s)) }

// Step adds a step.
func Step(name string) render.Option { return step(name) }
