// Package astarget reproduces pkg/errors' As, which hands errors.As a
// target that its caller made: `func As(err error, target interface{})
// bool { return stderrors.As(err, target) }`.
package astarget

import "errors"

type wrapped struct {
	cause error
	msg   string
}

func (w *wrapped) Error() string { return w.msg + ": " + w.cause.Error() }
func (w *wrapped) Unwrap() error { return w.cause }

// Wrap annotates err with msg.
func Wrap(err error, msg string) error { return &wrapped{err, msg} }

// As finds the first error in err's chain that matches target, as
// errors.As does.
func As(err error, target interface{}) bool { return errors.As(err, target) }
