package caller

import (
	"testing"

	"example.com/reflectlocal/codec"
)

func TestProfile(t *testing.T) {
	if got := codec.Fields(Profile{User: "u", Age: 4}); got != "User=u Age=4" {
		t.Fatal(got)
	}
}
