// Command reflectout drives the codec with values of its own making.
package main

import (
	"fmt"
	"os"
	"time"

	"example.com/reflectout/codec"
	"example.com/reflectout/units"
)

func main() {
	r := &units.Reading{
		Sensor: "s1", Temp: 21.5, At: units.Point{X: 1, Y: 2}, Tags: []string{"a", "b"}, Every: 90 * time.Second,
		Extra: map[string]any{"n": 3, "ok": true, "list": []any{1, "x"}, "where": units.Point{X: 5}},
		Next:  &units.Reading{Sensor: "s2", Temp: -3},
	}
	r.Note("skipped")
	show(codec.Encode(r))
	// The caller changes its value between two calls: the second encoding
	// sees the new state.
	r.Temp, r.Tags = 22, append(r.Tags, "c")
	r.Next.Sensor = "s3"
	show(codec.Encode(r))
	show(codec.Encode(map[string]any{"b": 2, "a": []int{1, 2}, "c": nil}))
	show(codec.Encode([]units.Celsius{1, 2.25}))

	var c units.Config
	err := codec.Decode("name = api\nport = 8080\n# a comment\nDebug = true\nratio=0.5\nhosts = a, b\nlimit = 7", &c)
	fmt.Printf("%+v %d %v\n", c, *c.Limit, err)
	// Decode over a value the caller filled: fields not named keep theirs.
	c.Name = "kept"
	err = codec.Decode("port = 9090", &c)
	fmt.Printf("%+v %v\n", c, err)
	err = codec.Decode("bogus = 1", &c)
	fmt.Println(err)
	show(codec.Encode(c))
	if err == nil {
		os.Exit(1)
	}
}

func show(s string, err error) { fmt.Println(s, err) }
