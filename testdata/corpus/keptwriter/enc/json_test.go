package enc_test

import (
	"testing"

	"example.com/keptwriter/enc"
)

func TestJSON(t *testing.T) {
	if got := enc.JSON(map[string]int{"a": 1}); got != "{\"a\":1}\n{\"a\":1}\n" {
		t.Fatal(got)
	}
}
