// Package typederrorwrite reproduces a fault the study found in expr's
// root package (TestConstExpr_error_panic, TestIssue138: "different
// results (expected RETURN_IN; at module/expr.go:229)"): observed code gets
// an error of an external type from an outcall, completes it with a method
// of that type that writes its receiver (expr's `fileError.Bind(source)`),
// and returns it. The error crosses by value (a registered error type,
// rebuilt in replay), but the method's writes into it are not recorded: the
// method is an outcall answered from the log, so replay's error keeps the
// fields it had when it crossed and the RETURN_IN differs.
package typederrorwrite

import (
	"errors"

	"example.com/repros/typederrorwrite/ext"
)

// Compile returns the length of s, or the optimizer's error bound to s.
func Compile(s string) (int, error) {
	if err := ext.Optimize(s); err != nil {
		var fe *ext.Error
		if errors.As(err, &fe) {
			return 0, fe.Bind(s)
		}
		return 0, err
	}
	return len(s), nil
}
