// Package opts takes functional options: closures it makes, which its
// callers hand back.
package opts

import (
	"fmt"
	"iter"
	"strings"
)

type options struct {
	prefix string
	upper  bool
}

// An Option configures Parse.
type Option func(*options)

// WithPrefix strips prefix, which the version must have.
func WithPrefix(prefix string) Option {
	return func(o *options) { o.prefix = prefix }
}

// Upper upper-cases the result: one closure without captured variables.
func Upper() Option {
	return func(o *options) { o.upper = true }
}

// Parse applies opts and strips the prefix.
func Parse(v string, opts ...Option) (string, error) {
	o := &options{}
	for _, opt := range opts {
		opt(o)
	}
	if !strings.HasPrefix(v, o.prefix) {
		return "", fmt.Errorf("%q does not have prefix %q", v, o.prefix)
	}
	v = strings.TrimPrefix(v, o.prefix)
	if o.upper {
		v = strings.ToUpper(v)
	}
	return v, nil
}

// Words is a list of words.
type Words []string

// Each calls f on each word until f returns false.
func (w Words) Each(f func(string) bool) {
	for _, s := range w {
		if !f(s) {
			return
		}
	}
}

// Upper returns an iterator over the words upper-cased: a closure the
// caller calls, which calls Each with a closure of its own.
func (w Words) Upper() iter.Seq[string] {
	return func(yield func(string) bool) {
		w.Each(func(s string) bool { return yield(strings.ToUpper(s)) })
	}
}
