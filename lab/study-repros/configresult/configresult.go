// Package configresult: a decoder configured by a struct of its own that
// holds its caller's target in an `any` field, as mapstructure's
// DecoderConfig.Result does. NewDecoder takes the config; Decode later
// reflects over the target it holds and asks the caller's MatchName for
// each of the target's fields, so what Decode does depends on the target's
// type and contents, which crossed inside the config.
package configresult

import (
	"reflect"
	"sort"
)

// Config configures a Decoder.
type Config struct {
	// Result is a pointer to the struct Decode fills.
	Result any
	// MatchName reports whether a key of the input names a field.
	MatchName func(key, field string) bool
}

// Decoder fills its config's Result from maps.
type Decoder struct {
	config *Config
}

// NewDecoder returns a decoder for config.
func NewDecoder(config *Config) *Decoder {
	return &Decoder{config: config}
}

// Decode sets each field of the result that a key of input names to the
// key's value, and returns the names of the fields it left as they were.
func (d *Decoder) Decode(input map[string]any) []string {
	rv := reflect.ValueOf(d.config.Result).Elem()
	keys := make([]string, 0, len(input))
	for k := range input {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var kept []string
	for i := 0; i < rv.NumField(); i++ {
		name := rv.Type().Field(i).Name
		set := false
		for _, k := range keys {
			if d.config.MatchName(k, name) {
				rv.Field(i).Set(reflect.ValueOf(input[k]))
				set = true
				break
			}
		}
		if !set {
			kept = append(kept, name+"="+rv.Field(i).String())
		}
	}
	return kept
}
