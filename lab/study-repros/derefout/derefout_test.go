package derefout_test

import (
	"testing"

	"example.com/repros/derefout"
)

func TestNetwork(t *testing.T) {
	n, err := derefout.Network("10.1.2.3/8")
	if err != nil || n.String() != "10.0.0.0/8" {
		t.Fatalf("Network = %v, %v", n.String(), err)
	}
	var v derefout.Value
	if err := v.Set("192.168.1.7/24"); err != nil {
		t.Fatal(err)
	}
	if got := v.String(); got != "192.168.1.0/24" {
		t.Fatalf("String = %q", got)
	}
}
