package enc_test

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	"example.com/reflectrange/enc"
)

type point struct {
	X, Y int
	Tag  string
}

func (p point) MarshalText() ([]byte, error) {
	return []byte(strconv.Itoa(p.X) + "," + strconv.Itoa(p.Y) + p.Tag), nil
}

// TestStructKeys: a map keyed by a struct whose MarshalText is called per
// key.
func TestStructKeys(t *testing.T) {
	m := map[point]int{}
	for i := range 20 {
		m[point{X: i % 5, Y: i / 5, Tag: fmt.Sprint("t", i%3)}] = i
	}
	got, err := enc.Entries(m)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 20 || got[0] != "0,0t0=0" {
		t.Fatalf("Entries = %v", got)
	}
}

// TestPointerKeys: keys that are pointers to distinct structs.
func TestPointerKeys(t *testing.T) {
	m := map[*point]string{}
	for i := range 20 {
		m[&point{X: i, Y: -i}] = strconv.Itoa(i)
	}
	got, err := enc.Entries(m)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 20 {
		t.Fatalf("Entries = %v", got)
	}
}

// TestInterfaceKeys: keys of an interface type holding strings and
// integers, visited through a callback.
func TestInterfaceKeys(t *testing.T) {
	m := map[any]int{}
	for i := range 10 {
		m[i] = i
		m[strconv.Itoa(i)+"s"] = -i
	}
	var keys []string
	enc.Visit(m, func(k, v any) { keys = append(keys, fmt.Sprint(k)) })
	slices.Sort(keys)
	if len(keys) != 20 || keys[0] != "0" {
		t.Fatalf("keys = %v", keys)
	}
}
