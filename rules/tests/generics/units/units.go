// Package units declares a type the generics test app instantiates gen with:
// a type argument of a package the observed package does not import.
package units

// Celsius is a temperature.
type Celsius float64
