package firstwhole

import "testing"

func TestMapMap(t *testing.T) {
	m := New()
	got := m.Map(func(k interface{}) interface{} { return k }, "a", "b")
	if got.Size() != 2 {
		t.Fatalf("size %d", got.Size())
	}
}
