package lexer

import (
	"reflect"
	"runtime"
	"strings"
)

// FuncName names a function from outside by its code address, as go-cmp's
// function.NameOf does: runtime.FuncForPC(v.Pointer()).Name(). The address
// is one of the test's functions, in the capture's binary; in replay the
// function is a stand-in at another address.
func FuncName(v reflect.Value) string {
	fn := runtime.FuncForPC(v.Pointer())
	if fn == nil {
		return "<unknown>"
	}
	name := fn.Name()
	if i := strings.LastIndexByte(name, '.'); i > -1 {
		name = name[i+1:]
	}
	return name
}

// FuncNames names each of fns.
func FuncNames(fns []reflect.Value) []string {
	var names []string
	for i := range fns {
		names = append(names, FuncName(fns[i]))
	}
	return names
}
