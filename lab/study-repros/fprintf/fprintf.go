// Package fprintf: observed code formats into its own bytes.Buffer with
// fmt.Fprintf and reads the buffer back (semver's Version.String).
package fprintf

import (
	"bytes"
	"fmt"
)

// Version is a parsed version.
type Version struct{ major, minor int }

// New returns the version major.minor.
func New(major, minor int) Version { return Version{major, minor} }

// String formats v through a local buffer.
func (v Version) String() string {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "%d.%d", v.major, v.minor)
	return buf.String()
}
