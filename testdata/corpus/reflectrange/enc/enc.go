// Package enc walks maps its callers pass in with reflect's MapRange and
// makes a boundary call per entry, as go-toml's encoder calls MarshalText on
// each key of a map keyed by a struct: the calls come in the order MapRange
// gives the entries.
package enc

import (
	"encoding"
	"fmt"
	"reflect"
	"sort"
)

// Entries returns "key=value" for each entry of map m, sorted, where a key
// that has a MarshalText method is written by it.
func Entries(m any) ([]string, error) {
	v := reflect.ValueOf(m)
	kbuf := reflect.New(v.Type().Key()).Elem()
	vbuf := reflect.New(v.Type().Elem()).Elem()
	var out []string
	it := v.MapRange()
	for it.Next() {
		kbuf.SetIterKey(it)
		vbuf.SetIterValue(it)
		k, err := keyString(kbuf)
		if err != nil {
			return nil, err
		}
		out = append(out, k+"="+fmt.Sprint(vbuf.Interface()))
	}
	sort.Strings(out)
	return out, nil
}

func keyString(k reflect.Value) (string, error) {
	if m, ok := k.Interface().(encoding.TextMarshaler); ok {
		b, err := m.MarshalText()
		return string(b), err
	}
	return fmt.Sprint(k.Interface()), nil
}

// Visit calls visit with each entry of map m.
func Visit(m any, visit func(k, v any)) {
	for it := reflect.ValueOf(m).MapRange(); it.Next(); {
		visit(it.Key().Interface(), it.Value().Interface())
	}
}
