package dump_test

import (
	"testing"

	"example.com/emptystructset/dump"
)

func TestIntSet(t *testing.T) {
	n := &dump.Const{Name: "in", Value: map[int]struct{}{1: {}, 2: {}, 3: {}}}
	if got, want := dump.Dump(n), "Const{Name: in;Value: set of 3: map[1:{} 2:{} 3:{}];}"; got != want {
		t.Fatalf("Dump = %q, want %q", got, want)
	}
}

func TestStringSetAndEmpty(t *testing.T) {
	n := &dump.Const{Name: "words", Value: map[string]struct{}{"a": {}, "b": {}}}
	if got, want := dump.Dump(n), "Const{Name: words;Value: set of 2: map[a:{} b:{}];}"; got != want {
		t.Fatalf("Dump = %q, want %q", got, want)
	}
	e := &dump.Const{Name: "unit", Value: struct{}{}}
	if got, want := dump.Dump(e), "Const{Name: unit;Value: {};}"; got != want {
		t.Fatalf("Dump = %q, want %q", got, want)
	}
	l := &dump.Const{Name: "units", Value: []struct{}{{}, {}}}
	if got, want := dump.Dump(l), "Const{Name: units;Value: [{} {}];}"; got != want {
		t.Fatalf("Dump = %q, want %q", got, want)
	}
}
