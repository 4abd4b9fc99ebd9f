// Package user describes values with package check (not observed).
package user

import (
	"strings"

	"example.com/testtypes/check"
)

func Describe(v any) string { return strings.Join(check.Fields(v), ",") }
