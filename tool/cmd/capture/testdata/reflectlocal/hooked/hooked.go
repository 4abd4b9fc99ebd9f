// Package hooked is not observed, and its initialisation calls the codec:
// the replay build leaves it out (linked, its initialiser would call the
// observed code again), so the values of its types cannot be rebuilt.
package hooked

import "example.com/reflectlocal/codec"

// Profile is declared in a package whose initialisation calls the codec.
type Profile struct {
	User string
}

// Default is encoded while the package initialises.
var Default = codec.Fields(Profile{User: "d"})
