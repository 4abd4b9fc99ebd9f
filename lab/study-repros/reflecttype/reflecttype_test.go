package reflecttype_test

import (
	"reflect"
	"testing"

	"example.com/repros/reflecttype"
)

func TestIsFunc(t *testing.T) {
	if !reflecttype.IsFunc(reflect.TypeOf(TestIsFunc)) || reflecttype.IsFunc(reflect.TypeOf(0)) {
		t.Fatal("IsFunc is wrong")
	}
}
