// Package reflectown: observed code reflecting over its own values only.
package reflectown

import "reflect"

type Config struct {
	Port int
	Name string
}

// Set sets the field called field of a new Config through reflection.
func Set(field string, v int) Config {
	var c Config
	rv := reflect.ValueOf(&c).Elem()
	if f := rv.FieldByName(field); f.IsValid() && f.CanSet() && f.Kind() == reflect.Int {
		f.SetInt(int64(v))
	}
	return c
}

// Fields names the fields of Config.
func Fields() []string {
	t := reflect.TypeOf(Config{})
	var out []string
	for i := 0; i < t.NumField(); i++ {
		out = append(out, t.Field(i).Name)
	}
	return out
}
