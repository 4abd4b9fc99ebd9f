// Package chain is the observed package of the errident corpus program:
// errors observed code allocates and the test hands back, compared by
// identity (errors.Is's ==) after crossing the boundary inside a wrapper.
package chain

import "errors"

// Err is an error of the observed set, made by New and compared by pointer.
type Err struct{ msg string }

func (e *Err) Error() string { return e.msg }

// New returns a fresh *Err: two calls with one message are two errors.
func New(msg string) error { return &Err{msg: msg} }

type wrapped struct {
	err error
	msg string
}

func (w *wrapped) Error() string { return w.msg + ": " + w.err.Error() }
func (w *wrapped) Unwrap() error { return w.err }

// Wrap adds msg in front of err, keeping err in the chain.
func Wrap(err error, msg string) error { return &wrapped{err: err, msg: msg} }

// Is reports whether target is in err's chain.
func Is(err, target error) bool { return errors.Is(err, target) }

// Unwrap is errors.Unwrap: it follows only Unwrap() error.
func Unwrap(err error) error { return errors.Unwrap(err) }
