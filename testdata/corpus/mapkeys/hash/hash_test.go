package hash_test

import (
	"sort"
	"testing"

	"example.com/mapkeys/hash"
)

func TestKeys(t *testing.T) {
	m := hash.New()
	for i := 0; i < 12; i++ {
		m.Put(i, i*i)
		m.Put("k"+string(rune('a'+i)), i)
	}
	keys := m.Keys()
	if len(keys) != 24 {
		t.Fatalf("%d keys", len(keys))
	}
	if m.First() == nil {
		t.Fatal("no first key")
	}
}

func TestSetValues(t *testing.T) {
	s := hash.NewSet("pear", "fig", "apple", "kiwi", "plum", "lime", "date", "yuzu")
	got := s.Values()
	sort.Strings(got)
	if len(got) != 8 || got[0] != "apple" {
		t.Fatalf("values %v", got)
	}
}
