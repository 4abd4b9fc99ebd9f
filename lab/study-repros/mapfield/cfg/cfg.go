// Package cfg is a configuration in the style of goldmark's renderer.Config:
// options are applied by handing them the configuration, whose map field
// they write. The mapfield repro leaves it unobserved.
package cfg

// Config holds named options.
type Config struct {
	Options map[string]bool
}

// Option sets options on a Config.
type Option interface {
	SetConfig(c *Config)
}

// New applies opts to a new Config.
func New(opts ...Option) *Config {
	c := &Config{Options: map[string]bool{}}
	for _, o := range opts {
		o.SetConfig(c)
	}
	return c
}
