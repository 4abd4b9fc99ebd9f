// Package units declares a type the main packages instantiate gen.Sum with.
package units

// Celsius is a temperature.
type Celsius float64
