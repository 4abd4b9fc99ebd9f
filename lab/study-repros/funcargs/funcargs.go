// Package funcargs reproduces a fault the study found (reducing zerosize):
// several function values from outside passed to an exported function;
// replay's stand-ins for them shared one code pointer (reflect.MakeFunc's),
// so replay numbered three different functions as one object ("different
// arguments": [func()#2 func()#2 func()#2] for [func()#1 func()#2 func()#1]).
package funcargs

// Count counts the functions that are not nil.
func Count(fs ...func()) int {
	n := 0
	for _, f := range fs {
		if f != nil {
			n++
		}
	}
	return n
}
