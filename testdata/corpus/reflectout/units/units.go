// Package units holds the caller's types that the observed codec reflects
// over. It is not observed: its values come from outside the observed set.
package units

import (
	"strconv"
	"time"
)

// Celsius encodes itself (codec.Marshaler): the codec reaches the method
// through reflect.Value.Interface and a type assertion.
type Celsius float64

// MarshalText writes the temperature with one decimal and a unit.
func (c Celsius) MarshalText() ([]byte, error) {
	return []byte(strconv.FormatFloat(float64(c), 'f', 1, 64) + "C"), nil
}

// Point is a struct the codec special-cases in a type switch.
type Point struct{ X, Y int }

// Reading is walked field by field.
type Reading struct {
	Sensor string         `codec:"sensor"`
	Temp   Celsius        `codec:"temp"`
	At     Point          `codec:"at"`
	Tags   []string       `codec:"tags"`
	Every  time.Duration  `codec:"every"`
	Extra  map[string]any `codec:"extra"`
	Next   *Reading       `codec:"next"`
	note   string
}

// Note sets the unexported field, which the codec skips.
func (r *Reading) Note(s string) { r.note = s }

// Config is filled by codec.Decode through a pointer.
type Config struct {
	Name  string   `codec:"name"`
	Port  int      `codec:"port"`
	Debug bool     // no tag: the field's name
	Ratio float64  `codec:"ratio"`
	Hosts []string `codec:"hosts"`
	Limit *int     `codec:"limit"`
}
