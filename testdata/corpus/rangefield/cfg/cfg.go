// Package cfg is the external code of rangefield: a configuration whose
// exported map and slice fields its callers range over and edit, as expr's
// conf.Config.
package cfg

// Config holds the functions an engine offers and those disabled.
type Config struct {
	Builtins map[string]int
	Disabled map[string]bool
	Names    []string
}

// New returns a configuration with every builtin enabled.
func New() *Config {
	c := &Config{Builtins: map[string]int{}, Disabled: map[string]bool{}}
	for i, n := range []string{"abs", "len", "max", "min", "sum"} {
		c.Builtins[n] = i + 1
		c.Names = append(c.Names, n)
	}
	return c
}
