// Package errident reduces pkg/errors' TestIs: an error the observed
// package allocates crosses inside a wrapper and by itself, and the test
// asks the package whether the one is in the other's chain (errors.Is
// compares with ==).
package errident

import "errors"

type fundamental struct{ msg string }

func (f *fundamental) Error() string { return f.msg }

// New returns a fresh error.
func New(msg string) error { return &fundamental{msg: msg} }

type withMessage struct {
	cause error
	msg   string
}

func (w *withMessage) Error() string { return w.msg + ": " + w.cause.Error() }
func (w *withMessage) Unwrap() error { return w.cause }

// WithMessage wraps err.
func WithMessage(err error, msg string) error { return &withMessage{cause: err, msg: msg} }

// Is is errors.Is.
func Is(err, target error) bool { return errors.Is(err, target) }

// Unwrap is errors.Unwrap.
func Unwrap(err error) error { return errors.Unwrap(err) }
