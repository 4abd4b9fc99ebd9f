// Package hookresult: observed code that reflects over what its caller's
// function returns (mapstructure's decode hooks: DecodeHookExec calls the
// hook, and the decoder sets the value it returned into the target by
// reflection). The hook is external code, an outcall whose `any` result
// native reflection then inspects: its dynamic type decides whether it
// fits the target.
package hookresult

import (
	"fmt"
	"reflect"
)

// Set stores hook(in) into the variable out points to, if it fits.
func Set(out any, in string, hook func(string) any) error {
	target := reflect.ValueOf(out).Elem()
	v := reflect.ValueOf(hook(in))
	if !v.IsValid() || !v.Type().AssignableTo(target.Type()) {
		return fmt.Errorf("%s does not fit %s", v.Kind(), target.Type())
	}
	target.Set(v)
	return nil
}
