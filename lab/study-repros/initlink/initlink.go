// Package initlink reproduces a fault the study found (go-cmp cmp/internal/value,
// function, diff): an observed package whose initialisation makes an
// outcall (time.Now in a variable initialiser). Every test of the module
// runs under capture with it observed, also tests whose binaries do not
// link it: their logs held no initialisation, while the replay harness
// links the whole observed set, so replay met an outcall the log did not
// hold.
package initlink

import "time"

var started = time.Now()

// Started reports whether initialisation happened.
func Started() bool { return !started.IsZero() }
