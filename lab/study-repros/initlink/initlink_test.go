package initlink_test

import (
	"testing"

	"example.com/repros/initlink"
)

func TestStarted(t *testing.T) {
	if !initlink.Started() {
		t.Fatal("not started")
	}
}
