// Package opts is a small flag set shaped like github.com/spf13/pflag,
// whose tests set exported fields of its objects between calls
// (flag.NoOptDefVal = "true", fs.SortFlags = false, fs.Usage = ...,
// fs.ParseErrorsAllowlist.UnknownFlags = true, flag.Hidden): pflag's tests,
// WRITE_IN of fields of observed objects.
package opts

import (
	"errors"
	"sort"
	"strings"
)

// A Flag is one flag of a set; external code may set its exported fields.
type Flag struct {
	Name        string
	NoOptDefVal string // the value of "--name" without "=value"
	Hidden      bool   // left out of Names
	value       string
}

// Sink receives notes. No exported function takes or returns one: only
// the field crosses, so its stand-in comes from the field.
type Sink interface{ Note(string) }

// Allowlist says which parse errors are ignored.
type Allowlist struct {
	UnknownFlags bool
}

// A Set is a set of flags.
type Set struct {
	Usage     func() // called for --help
	SortFlags bool   // Names in sorted order (default) or definition order
	Allow     Allowlist
	Out       Sink // told about --help, if set
	flags     map[string]*Flag
	order     []*Flag
	args      []string
}

// ErrHelp is returned by Parse after Usage for --help.
var ErrHelp = errors.New("help requested")

// NewSet returns an empty set that sorts its flags.
func NewSet() *Set {
	return &Set{Usage: func() {}, SortFlags: true, flags: map[string]*Flag{}}
}

// String defines a flag with a default value.
func (s *Set) String(name, def string) *Flag {
	f := &Flag{Name: name, value: def}
	s.flags[name] = f
	s.order = append(s.order, f)
	return f
}

// Lookup returns the flag of that name, or nil.
func (s *Set) Lookup(name string) *Flag { return s.flags[name] }

// Get returns a flag's value.
func (s *Set) Get(name string) string {
	if f := s.flags[name]; f != nil {
		return f.value
	}
	return ""
}

// Parse sets flags from "--name=value" and "--name" arguments; anything
// else is a positional argument.
func (s *Set) Parse(args []string) error {
	for _, a := range args {
		if !strings.HasPrefix(a, "--") {
			s.args = append(s.args, a)
			continue
		}
		name, val, hasVal := strings.Cut(a[2:], "=")
		if name == "help" {
			if s.Out != nil {
				s.Out.Note("help")
			}
			s.Usage()
			return ErrHelp
		}
		f := s.flags[name]
		if f == nil {
			if s.Allow.UnknownFlags {
				continue
			}
			return errors.New("unknown flag --" + name)
		}
		if !hasVal {
			if f.NoOptDefVal == "" {
				return errors.New("flag needs an argument: --" + name)
			}
			val = f.NoOptDefVal
		}
		f.value = val
	}
	return nil
}

// Args returns the positional arguments.
func (s *Set) Args() []string { return s.args }

// Names returns the names of the flags that are not hidden.
func (s *Set) Names() []string {
	var names []string
	for _, f := range s.order {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	}
	if s.SortFlags {
		sort.Strings(names)
	}
	return names
}
