package cache

import (
	"time"

	"example.com/inferred118/lib"
)

// Buckets: a partial instantiation, the value type inferred; the file's
// only uses of lib and of time are in the call its helper takes over.
func Buckets(v string) int { return len(lib.Keyed[time.Duration](v)) }
