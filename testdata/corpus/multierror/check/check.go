// Package check returns its own multi-error type, a slice of errors, which
// callers hand back to it: ErrorsByField type-switches on the error and
// ranges over its elements, as govalidator's does. Replay must hand the
// code an Errors with the capture's elements, not a stand-in that carries
// the message alone.
package check

import "strings"

// Error is one field's failure.
type Error struct {
	Name string
	Err  error
}

func (e Error) Error() string { return e.Name + ": " + e.Err.Error() }

// Errors is every field's failure.
type Errors []error

func (es Errors) Error() string {
	var parts []string
	for _, e := range es {
		parts = append(parts, e.Error())
	}
	return strings.Join(parts, ";")
}

type problem string

func (p problem) Error() string { return string(p) }

// Fields checks that no value is empty and none has spaces.
func Fields(names []string, values []string) error {
	var errs Errors
	for i, name := range names {
		switch v := values[i]; {
		case v == "":
			errs = append(errs, Error{Name: name, Err: problem("empty")})
		case strings.Contains(v, " "):
			errs = append(errs, Error{Name: name, Err: problem(v + " has spaces")})
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// ErrorsByField maps each failing field to its message.
func ErrorsByField(e error) map[string]string {
	m := map[string]string{}
	switch e := e.(type) {
	case Error:
		m[e.Name] = e.Err.Error()
	case Errors:
		for _, item := range e {
			for k, v := range ErrorsByField(item) {
				m[k] = v
			}
		}
	}
	return m
}
