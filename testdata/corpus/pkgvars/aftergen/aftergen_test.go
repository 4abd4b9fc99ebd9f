package aftergen

import "testing"

func TestOver(t *testing.T) {
	if Over(4) || !Over(6) {
		t.Fatal("Limit.Max is not 5")
	}
	if !Limit.Over(6) {
		t.Fatal("Limit.Over(6)")
	}
}
