// Package localiface: observed code calls a method through an interface
// type declared inside the function (pkg/errors' Cause, `type causer
// interface{ Cause() error }`; go-querystring's `zeroable`). The call is an
// outcall whose helper takes the receiver, and the generated file cannot
// name a function's type: the transform rejected the package ("a method
// call on a value of type causer declared inside a function"). The helper
// now takes the interface literal the local type stands for.
package localiface

// Cause unwraps err through every Cause method it has.
func Cause(err error) error {
	type causer interface {
		Cause() error
	}
	for err != nil {
		c, ok := err.(causer)
		if !ok {
			break
		}
		err = c.Cause()
	}
	return err
}

// Depth counts the Cause methods on the way.
func Depth(err error) int {
	type causer interface {
		Cause() error
	}
	n := 0
	for {
		c, ok := err.(causer)
		if !ok {
			return n
		}
		err = c.Cause()
		n++
	}
}
