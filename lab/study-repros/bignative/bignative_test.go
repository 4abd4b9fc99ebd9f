package bignative_test

import (
	"testing"

	"example.com/repros/bignative"
)

func TestQuoInt(t *testing.T) {
	q := bignative.New(100, -1).Copy().QuoInt(bignative.New(7, -1))
	if got := q.String(); got != "14e0" {
		t.Fatalf("QuoInt = %s", got)
	}
}
