package codec_test

import (
	"strconv"
	"testing"

	"example.com/reflectmade/codec"
)

type num struct{ N int }

func (n *num) UnmarshalText(b []byte) error {
	v, err := strconv.Atoi(string(b))
	n.N = v
	return err
}

// TestDecode: elements of a slice made by reflect.MakeSlice, written by
// the test type's UnmarshalText.
func TestDecode(t *testing.T) {
	var xs []num
	if err := codec.Decode("1,2,3", &xs); err != nil {
		t.Fatal(err)
	}
	if len(xs) != 3 || xs[2].N != 3 {
		t.Fatalf("got %v", xs)
	}
}

// TestAppend: elements of a slice grown by reflect.Append.
func TestAppend(t *testing.T) {
	var xs []num
	if err := codec.Append("4,5,6,7", &xs); err != nil {
		t.Fatal(err)
	}
	if len(xs) != 4 || xs[3].N != 7 {
		t.Fatalf("got %v", xs)
	}
}

type counter struct {
	calls *int
	body  string
}

// Marshal counts its calls in the caller's variable.
func (c counter) Marshal() (string, error) {
	*c.calls++
	return c.body + strconv.Itoa(*c.calls), nil
}

// TestTwice: a marshaler held by value whose method writes the memory its
// pointer field points to.
func TestTwice(t *testing.T) {
	calls := 0
	type cfg struct{ X counter }
	got, err := codec.Twice(cfg{X: counter{calls: &calls, body: "a"}})
	if err != nil || got != "a1a2" || calls != 2 {
		t.Fatalf("got %q, %v, %d calls", got, err, calls)
	}
}
