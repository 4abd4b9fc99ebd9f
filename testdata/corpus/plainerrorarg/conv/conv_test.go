package conv_test

import (
	"testing"

	"example.com/plainerrorarg/conv"
)

// fu is an error by value, of a type only this test file declares.
type fu struct{ val string }

func (x fu) Error() string { return x.val }

// ptrErr is an error by pointer.
type ptrErr struct{ val string }

func (x *ptrErr) Error() string { return x.val }

func TestString(t *testing.T) {
	n := 8
	var held any = fu{val: "held"}
	for _, c := range []struct {
		in   any
		want string
	}{
		{nil, ""},
		{8, "8"},
		{&n, "8"},
		{fu{val: "bar"}, "bar"},
		{&ptrErr{val: "baz"}, "baz"},
		{"s", "s"},
		{&held, "held"},
	} {
		if got := conv.ToString(c.in); got != c.want {
			t.Errorf("ToString(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSetString(t *testing.T) {
	var s string
	if !conv.SetString(&s, conv.ToString(fu{val: "qux"})) || s != "qux" {
		t.Errorf("SetString: %q", s)
	}
}
