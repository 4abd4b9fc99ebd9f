// Package optionsmap is a configuration in the style of goldmark's
// renderer: options from another package are handed the configuration
// (`opt.SetConfig(config)` with `config := NewConfig()`, and
// `opt.SetConfig(r.config)` on a field), and they write its map field and
// append to its slice field. The pointer crosses to external code, which
// writes memory the observed code reads natively afterwards (the range over
// the options when rendering).
package optionsmap

import (
	"sort"
	"strings"
)

// Config holds named options and the names of the steps to run.
type Config struct {
	Options map[string]any
	Steps   []string
}

// NewConfig returns an empty configuration.
func NewConfig() *Config {
	return &Config{Options: map[string]any{}}
}

// Option sets options on a Config.
type Option interface {
	SetConfig(c *Config)
}

// Renderer renders with the options it was given.
type Renderer struct {
	config *Config
}

// New applies opts to a new configuration.
func New(opts ...Option) *Renderer {
	config := NewConfig()
	for _, o := range opts {
		o.SetConfig(config)
	}
	return &Renderer{config: config}
}

// AddOptions applies more options.
func (r *Renderer) AddOptions(opts ...Option) {
	for _, o := range opts {
		o.SetConfig(r.config)
	}
}

// Render describes s with the options set, in name order, then the steps.
func (r *Renderer) Render(s string) string {
	names := make([]string, 0, len(r.config.Options))
	for name := range r.config.Options {
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(s)
	for _, name := range names {
		b.WriteString(" " + name)
	}
	for _, step := range r.config.Steps {
		b.WriteString(" " + step)
	}
	return b.String()
}
