// Package model is outside the observed set: a caller's type, with an
// unexported field that reflection reads as a read-only reflect.Value.
package model

import "reflect"

// Config is what the hooks fill in.
type Config struct {
	Name   string
	Port   int
	secret string
}

// New returns a Config with its secret set.
func New(secret string) Config { return Config{secret: secret} }

// Secret returns the unexported field as reflect reads it: read-only.
func Secret(c Config) reflect.Value { return reflect.ValueOf(c).FieldByName("secret") }
