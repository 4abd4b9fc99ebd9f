// Package env holds fixtures that only tests import.
package env

type Env struct {
	Name  string `check:"upper"`
	Count int    `check:"count"`
}
