// Package greet is the observed package of rules_capture's own rule tests.
package greet

import (
	"fmt"

	"github.com/rules-capture/rules_capture/rules/tests/app/clock"
)

// Greeting greets name according to the hour the clock reports: an outcall.
func Greeting(c clock.Clock, name string) string {
	h := c.Hour()
	switch {
	case h < 12:
		return fmt.Sprintf("good morning, %s", name)
	case h < 18:
		return fmt.Sprintf("good afternoon, %s", name)
	}
	return fmt.Sprintf("good evening, %s", name)
}
