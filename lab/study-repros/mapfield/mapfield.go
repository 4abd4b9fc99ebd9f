// Package mapfield's options write an element of an external struct's map
// field (goldmark's html.WithXHTML: `c.Options[optXHTML] = true` on a
// *renderer.Config). Such a write has no event (docs/limitations.md): in
// replay it happens on the placeholder for the *cfg.Config, whose map field
// was nil, so the option panicked ("assignment to entry in nil map") where
// the capture did not.
package mapfield

import "example.com/repros/mapfield/cfg"

type withX struct{}

func (withX) SetConfig(c *cfg.Config) { c.Options["x"] = true }

// WithX is an option that sets "x".
func WithX() cfg.Option { return withX{} }
