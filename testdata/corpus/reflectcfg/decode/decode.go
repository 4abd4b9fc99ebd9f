// Package decode: a decoder in the manner of mapstructure, which reflects
// over values its callers hand it in other ways than as an `any`
// parameter: the target held in a field of its own config struct, what
// the caller's hook returns, memory it makes with reflect.New and hands to
// a method of the value's type, and a slice behind a pointer that the
// caller resets between calls.
package decode

import (
	"encoding"
	"fmt"
	"reflect"
	"sort"
)

// Config configures a Decoder.
type Config struct {
	// Result points to the struct Decode fills.
	Result any
	// MatchName reports whether a key of the input names a field.
	MatchName func(key, field string) bool
	// Hook, if set, turns each input string into the value to store.
	Hook func(string) any
}

// Decoder fills its config's Result.
type Decoder struct {
	config *Config
}

// NewDecoder returns a decoder for config.
func NewDecoder(config *Config) *Decoder {
	return &Decoder{config: config}
}

// Decode sets each field of the result that a key of input names, and
// reports every field with its value: "F=v" for one it left as it was,
// "F:=v" for one it set.
func (d *Decoder) Decode(input map[string]string) ([]string, error) {
	rv := reflect.ValueOf(d.config.Result).Elem()
	keys := make([]string, 0, len(input))
	for k := range input {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var report []string
	for i := 0; i < rv.NumField(); i++ {
		f := rv.Type().Field(i)
		key := ""
		for _, k := range keys {
			if d.config.MatchName(k, f.Name) {
				key = k
				break
			}
		}
		if key == "" {
			report = append(report, fmt.Sprintf("%s=%v", f.Name, rv.Field(i).Interface()))
			continue
		}
		if err := d.set(rv.Field(i), input[key]); err != nil {
			return report, err
		}
		report = append(report, fmt.Sprintf("%s:=%v", f.Name, rv.Field(i).Interface()))
	}
	return report, nil
}

func (d *Decoder) set(field reflect.Value, raw string) error {
	if d.config.Hook != nil {
		return Store(field.Addr().Interface(), raw, d.config.Hook)
	}
	v, err := Parse(field.Interface(), raw)
	if err != nil {
		return err
	}
	field.Set(reflect.ValueOf(v).Elem())
	return nil
}

// Store stores hook(raw) into the variable out points to, if it fits.
func Store(out any, raw string, hook func(string) any) error {
	target := reflect.ValueOf(out).Elem()
	v := reflect.ValueOf(hook(raw))
	if !v.IsValid() || !v.Type().AssignableTo(target.Type()) {
		return fmt.Errorf("hook result %s does not fit %s", v.Kind(), target.Type())
	}
	target.Set(v)
	return nil
}

// Parse returns a pointer to a new value of like's type parsed from s by
// the type's UnmarshalText, or to s itself when the type has none.
func Parse(like any, s string) (any, error) {
	result := reflect.New(reflect.TypeOf(like)).Interface()
	u, ok := result.(encoding.TextUnmarshaler)
	if !ok {
		return &s, nil
	}
	if err := u.UnmarshalText([]byte(s)); err != nil {
		return nil, err
	}
	return result, nil
}

// Append appends vals to the slice out points to, making an empty slice
// first when it is nil, and returns its length.
func Append(out any, vals ...string) int {
	rv := reflect.ValueOf(out).Elem()
	if rv.IsNil() {
		rv.Set(reflect.MakeSlice(rv.Type(), 0, len(vals)))
	}
	for _, v := range vals {
		rv.Set(reflect.Append(rv, reflect.ValueOf(v)))
	}
	return rv.Len()
}
