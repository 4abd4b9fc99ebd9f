// Package caller is not observed and the codec does not import it.
package caller

// Profile is declared in the caller's package.
type Profile struct {
	User string
	Age  int
}
