package reflectnew

import (
	"math/big"
	"reflect"
	"testing"
)

func TestParseBigInt(t *testing.T) {
	got, err := Parse(big.Int{}, "42")
	if err != nil || !reflect.DeepEqual(got, big.NewInt(42)) {
		t.Fatalf("got %v, %v", got, err)
	}
	if _, err := Parse(big.Int{}, "x"); err == nil {
		t.Fatal("no error")
	}
	if got, _ := Parse("", "5"); got != "5" {
		t.Fatalf("got %v", got)
	}
}
