// Package lexer is observed code naming one of its own functions
// by its code address: toml's stateFn.String calls
// runtime.FuncForPC(reflect.ValueOf(s).Pointer()).Name(). The address
// differs between the capture's binary and replay's; the name does not.
package lexer

import (
	"reflect"
	"runtime"
	"strings"
)

// State is a step of a small state machine.
type State func(s string) State

// String names the step's function.
func (st State) String() string {
	if st == nil {
		return "<nil>"
	}
	name := runtime.FuncForPC(reflect.ValueOf(st).Pointer()).Name()
	if i := strings.LastIndexByte(name, '.'); i > -1 {
		name = name[i+1:]
	}
	return name + "()"
}

// Start is the first step.
func Start(s string) State {
	if s == "" {
		return nil
	}
	return word
}

func word(s string) State { return Start }
