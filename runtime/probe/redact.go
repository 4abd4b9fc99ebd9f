package probe

import (
	"reflect"

	"github.com/rules-capture/rules_capture/runtime/value"
)

// Redaction (docs/redaction.md): generated code registers what the
// observed package marks secret, and encodes marked parameters with
// Secret and SecretBytes.

// RedactType marks every value of T (a string or []byte type, or a struct
// type: its string and []byte fields) secret: //capture:redact on its
// declaration.
func RedactType[T any]() struct{} {
	value.RedactType(reflect.TypeFor[T]())
	return struct{}{}
}

// RedactField marks field name of struct type T secret: //capture:redact
// on the field.
func RedactField[T any](name string) struct{} {
	value.RedactField(reflect.TypeFor[T](), name)
	return struct{}{}
}

// RedactNames edits the names of struct fields redacted without a mark
// (value.DefaultRedactNames): //capture:redact-names.
func RedactNames(edits ...string) struct{} {
	value.EditRedactNames(edits)
	return struct{}{}
}

// Secret appends a string parameter marked secret, described by desc
// ("parameter password of example.com/auth.Check"): as its keyed hash.
func (s *Stream) Secret(v, desc string) {
	if !s.idleCall {
		s.enc.Secret(v, desc)
	}
}

// SecretBytes is Secret for a []byte parameter.
func (s *Stream) SecretBytes(v []byte, desc string) {
	if !s.idleCall {
		s.enc.SecretBytes(v, desc)
	}
}

// where describes the value replay decodes next, should it be a stand-in
// for a redacted one: an argument of the incall being performed, or a
// result of the outcall being answered.
func (s *Stream) where() string {
	if s.site == nil {
		return ""
	}
	return "a value crossing at " + s.site.Name
}
