package zerosize_test

import (
	"reflect"
	"strings"
	"testing"

	"example.com/repros/zerosize"
)

func a() {}
func b() {}

func TestNames(t *testing.T) {
	pa, pb := reflect.ValueOf(a).Pointer(), reflect.ValueOf(b).Pointer()
	got := zerosize.Names(pa, pb, pa)
	if len(got) != 3 || !strings.HasSuffix(got[0], ".a") || !strings.HasSuffix(got[1], ".b") || got[2] != got[0] {
		t.Fatalf("Names = %q", got)
	}
}
