// Package check validates values by their struct tags, reflecting over
// values its callers declared (the observed package).
package check

import (
	"reflect"
	"sort"
	"strings"
)

var rules = map[string]func(string) bool{}

// Register adds a named rule; tests register theirs in an init function.
func Register(name string, rule func(string) bool) { rules[name] = rule }

// Fields lists v's fields as name=tag, sorted, following pointers.
func Fields(v any) []string {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		return nil
	}
	var out []string
	for i := range rv.NumField() {
		f := rv.Type().Field(i)
		out = append(out, f.Name+"="+f.Tag.Get("check"))
	}
	sort.Strings(out)
	return out
}

// Validate applies the rules named in v's string fields' tags.
func Validate(v any) []string {
	rv := reflect.Indirect(reflect.ValueOf(v))
	var bad []string
	for i := range rv.NumField() {
		f := rv.Type().Field(i)
		rule := rules[f.Tag.Get("check")]
		if rule != nil && rv.Field(i).Kind() == reflect.String && !rule(rv.Field(i).String()) {
			bad = append(bad, f.Name)
		}
	}
	return bad
}

// Kind describes a type handed over as a reflect.Type.
func Kind(t reflect.Type) string {
	if t.Kind() == reflect.Func {
		return "func/" + strings.Repeat("in", t.NumIn())
	}
	return t.Kind().String() + "/" + t.Name()
}
