// Package reflectvalue takes reflect.Values in its exported API, as
// mapstructure's DecodeHookExec does, and gets them from an outcall, as
// expr's builtin gets them from deref.Value: a reflect.Value crosses the
// boundary.
package reflectvalue

import (
	"reflect"

	"example.com/repros/reflectvalue/deref"
)

// HookExec runs hook on from and on what to points to, and stores the
// hook's result there.
func HookExec(hook func(from, to reflect.Value) (any, error), from, to reflect.Value) (any, error) {
	target := deref.Value(to)
	out, err := hook(from, target)
	if err != nil {
		return nil, err
	}
	if target.CanSet() {
		target.Set(reflect.ValueOf(out).Convert(target.Type()))
	}
	return out, nil
}
