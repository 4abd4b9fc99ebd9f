package value

import (
	"reflect"
	"testing"
)

type boxedInt int

// TestDecodedSmallValuesShareGoStaticBoxes: a small integer, a bool and an
// empty string set into an interface by replay's decoder are where Go's
// own conversion of a variable puts them (one object for every such
// conversion of one value), a large integer in a box of its own, as Go's
// is (go-spew's TestFormatter calls String on the address of the value in
// the interface).
func TestDecodedSmallValuesShareGoStaticBoxes(t *testing.T) {
	if staticUint64s == nil {
		t.Skip("Go's static boxes not found on this platform")
	}
	decoded := func(x reflect.Value) any {
		var i any
		setIfaceForTest(reflect.ValueOf(&i).Elem(), x)
		return i
	}
	for _, c := range []struct {
		name   string
		native any
		x      reflect.Value
		same   bool
	}{
		{"small int", boxInt(127), settable(reflect.ValueOf(boxedInt(127))), true},
		{"bool", boxBool(true), settable(reflect.ValueOf(true)), true},
		{"empty string", boxString(""), settable(reflect.ValueOf("")), true},
		{"large int", boxInt(1000), settable(reflect.ValueOf(boxedInt(1000))), false},
	} {
		a, b := decoded(c.x), decoded(c.x)
		if a != c.native {
			t.Errorf("%s: decoded %v, want %v", c.name, a, c.native)
		}
		if got := dataWord(&a) == dataWord(&c.native) && dataWord(&b) == dataWord(&c.native); got != c.same {
			t.Errorf("%s: in Go's box %v, want %v", c.name, got, c.same)
		}
	}
}

// settable is a copy of x in memory of its own, as the decoder makes values.
func settable(x reflect.Value) reflect.Value {
	v := reflect.New(x.Type()).Elem()
	v.Set(x)
	return v
}

func setIfaceForTest(v, x reflect.Value) {
	d := &Decoder{}
	d.setIface(v, x)
}

// Go's conversions of variables, as a test's argument to an any parameter.

//go:noinline
func boxInt(n boxedInt) any { return n }

//go:noinline
func boxBool(b bool) any { return b }

//go:noinline
func boxString(s string) any { return s }
