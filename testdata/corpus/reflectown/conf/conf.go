// Package conf is the observed set: it fills its own Config through
// reflection, one environment variable per field. Reflection over the
// package's own values runs natively in the capture and in replay, so the
// writes through reflect.Value land in the Config replay returns.
package conf

import (
	"os"
	"reflect"
	"strconv"
)

// Config is filled from CONF_<FIELD> variables.
type Config struct {
	Port    int
	Host    string
	Retries int
	Debug   bool
}

// Load reads every field of a Config from the environment.
func Load() (Config, error) {
	var c Config
	rv := reflect.ValueOf(&c).Elem()
	rt := rv.Type()
	for i := 0; i < rt.NumField(); i++ {
		s := os.Getenv("CONF_" + rt.Field(i).Name)
		if s == "" {
			continue
		}
		f := rv.Field(i)
		switch f.Kind() {
		case reflect.Int:
			n, err := strconv.Atoi(s)
			if err != nil {
				return Config{}, err
			}
			f.SetInt(int64(n))
		case reflect.String:
			f.SetString(s)
		case reflect.Bool:
			f.SetBool(s == "true")
		}
	}
	return c, nil
}
