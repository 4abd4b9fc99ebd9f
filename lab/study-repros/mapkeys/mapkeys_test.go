package mapkeys

import "testing"

func TestKeys(t *testing.T) {
	m := New()
	m.Put(5, "e")
	m.Put(6, "f")
	m.Put(7, "g")
	m.Put(3, "c")
	m.Put(4, "d")
	m.Put(1, "x")
	m.Put(2, "b")
	if n := len(m.Keys()); n != 7 {
		t.Fatalf("%d keys", n)
	}
}
