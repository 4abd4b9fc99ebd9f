// Package ext is external to the observed set: a configuration type that
// observed code decodes into.
package ext

// Config is decoded from JSON by the observed package.
type Config struct {
	Name  string   `json:"name"`
	Port  int      `json:"port"`
	Tags  []string `json:"tags"`
	Limit *int     `json:"limit"`
}
