package hookresult

import "testing"

// Namer and named are declared in a test file, as mapstructure's Interface
// and ImplementsInterfacePointerReceiver are.
type Namer interface{ Name() string }

type named struct{ s string }

func (n *named) Name() string { return n.s }

func TestSetFromHook(t *testing.T) {
	var got Namer
	err := Set(&got, "x", func(s string) any { return &named{s: s + "!"} })
	if err != nil || got.Name() != "x!" {
		t.Fatalf("got %v, %v", got, err)
	}
	var n int
	if err := Set(&n, "x", func(s string) any { return s }); err == nil {
		t.Fatal("a string fits an int")
	}
}
