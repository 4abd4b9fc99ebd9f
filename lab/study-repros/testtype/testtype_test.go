package testtype

import "testing"

type memStore map[string]int

func (m memStore) Stock(item string) (int, error) { return m[item], nil }

func TestAvailable(t *testing.T) {
	s := New(memStore{"apple": 2})
	if !s.Available("apple") || s.Available("pear") {
		t.Fatal("Available is wrong")
	}
}
