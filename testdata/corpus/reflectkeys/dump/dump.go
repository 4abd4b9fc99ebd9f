// Package dump reflects over maps its callers pass in, walking their keys
// in the order reflect gives them.
package dump

import (
	"fmt"
	"os"
	"reflect"
	"sort"
)

// Lookup reads the environment variable each key of map m names, in the
// order of m's keys, and counts those that are set.
func Lookup(m any) int {
	set := 0
	for _, k := range reflect.ValueOf(m).MapKeys() {
		if os.Getenv(fmt.Sprint(k.Interface())) != "" {
			set++
		}
	}
	return set
}

// valuesSorter sorts reflected keys, as go-spew's does.
type valuesSorter struct{ keys []reflect.Value }

func (s *valuesSorter) Len() int           { return len(s.keys) }
func (s *valuesSorter) Swap(i, j int)      { s.keys[i], s.keys[j] = s.keys[j], s.keys[i] }
func (s *valuesSorter) Less(i, j int) bool { return s.keys[i].Int() > s.keys[j].Int() }

// Descending returns the integer keys of map m, largest first.
func Descending(m any) []int64 {
	s := &valuesSorter{keys: reflect.ValueOf(m).MapKeys()}
	sort.Sort(s)
	out := make([]int64, len(s.keys))
	for i, k := range s.keys {
		out[i] = k.Int()
	}
	return out
}
