package hooked

import (
	"testing"

	"example.com/reflectlocal/codec"
)

func TestHooked(t *testing.T) {
	if got := codec.Fields(Profile{User: "u"}); got != "User=u" {
		t.Fatal(got)
	}
}
