// Package ptrarg: a pointer-receiver method of an observed type called on
// a value the test allocated (semver's (*Version).UnmarshalText on
// &Version{}).
package ptrarg

import "strconv"

// Counter holds a number.
type Counter struct{ n int }

// UnmarshalText parses b into c.
func (c *Counter) UnmarshalText(b []byte) error {
	n, err := strconv.Atoi(string(b))
	if err != nil {
		return err
	}
	c.n = n
	return nil
}

// N returns the number.
func (c *Counter) N() int { return c.n }
