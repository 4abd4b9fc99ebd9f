package check

import (
	"strings"
	"testing"
)

// The init function registers a rule with the observed package: the log
// records it as an init-time incall, which replay performs.
func init() {
	Register("upper", func(s string) bool { return s == strings.ToUpper(s) })
}

type Code struct {
	ID string `check:"upper"`
}

func TestValidate(t *testing.T) {
	if bad := Validate(&Code{ID: "ab"}); len(bad) != 1 {
		t.Fatalf("Validate = %v", bad)
	}
	if bad := Validate(Code{ID: "AB"}); len(bad) != 0 {
		t.Fatalf("Validate = %v", bad)
	}
}

// Example functions without output are compiled but never run, so a test
// binary holds no type declared only in them: this Code is not in the
// capture's binary, nor in replay's.
func ExampleValidate() {
	type Code struct {
		ID int `check:"number"`
	}
	_ = Validate(Code{ID: 1})
}
