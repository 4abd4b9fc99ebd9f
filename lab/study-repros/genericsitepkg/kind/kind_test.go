package kind

import (
	"testing"

	"example.com/repros/genericsitepkg/assert"
)

func TestOf(t *testing.T) {
	if !assert.Equal(Of("ab"), Kind(2)) {
		t.Fatal("Of")
	}
}
