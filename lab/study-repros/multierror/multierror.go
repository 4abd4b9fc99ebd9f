// Package multierror reduces govalidator's TestValidateStructPointers: a
// validator returns its own multi-error type, a slice of errors
// (`type Errors []error`), which the test hands back to ErrorByField. That
// function type-switches on it (`case Errors:`) and ranges over its
// elements. The error crossed as its message and type name alone, and
// replay's stand-in matched no case: ErrorByField returned "".
package multierror

import (
	"sort"
	"strings"
)

// Error is one field's failure.
type Error struct {
	Name string
	Msg  string
}

func (e Error) Error() string { return e.Name + ": " + e.Msg }

// Errors is every field's failure.
type Errors []error

func (es Errors) Error() string {
	var parts []string
	for _, e := range es {
		parts = append(parts, e.Error())
	}
	sort.Strings(parts)
	return strings.Join(parts, ";")
}

// Validate checks that every value is lower-case letters.
func Validate(fields map[string]string) error {
	var errs Errors
	for name, v := range fields {
		if v == "" || strings.ToLower(v) != v || strings.ContainsAny(v, "0123456789") {
			errs = append(errs, Error{Name: name, Msg: v + " is not lower-case letters"})
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// ErrorByField returns the failure of one field, or "".
func ErrorByField(e error, field string) string {
	switch e := e.(type) {
	case Error:
		if e.Name == field {
			return e.Msg
		}
	case Errors:
		for _, item := range e {
			if m := ErrorByField(item, field); m != "" {
				return m
			}
		}
	}
	return ""
}
