// Package schema keeps reflect.Types by name: the package a typeoutcall
// test leaves unobserved.
package schema

import "reflect"

// Point and Label are types a registry hands out.
type Point struct{ X, Y int }

type Label struct {
	Text string
	Size float64
}

// Entry describes a registered type.
type Entry struct {
	Type reflect.Type
	Kind reflect.Kind
}

var registry = map[string]reflect.Type{
	"point":   reflect.TypeOf(Point{}),
	"label":   reflect.TypeOf(Label{}),
	"pair":    reflect.TypeOf([2]*Point{}),
	"handler": reflect.TypeOf(func(Point, ...string) error { return nil }),
	"index":   reflect.TypeOf(map[string][]Label{}),
}

// Lookup returns the type registered under name.
func Lookup(name string) reflect.Type { return registry[name] }

// Info returns the entry of the type registered under name.
func Info(name string) Entry {
	t := registry[name]
	return Entry{Type: t, Kind: t.Kind()}
}
