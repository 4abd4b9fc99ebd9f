package ext_test

import (
	"testing"

	"example.com/varchain/ext"
)

func TestFilters(t *testing.T) {
	if !ext.Allowed("align") || !ext.Allowed("id") || ext.Allowed("href") {
		t.Fatal("table filter")
	}
	if !ext.AllowedGlobal("class") || ext.AllowedGlobal("align") {
		t.Fatal("global filter")
	}
	if got := ext.Names(); got != "align,border,class,id" {
		t.Fatalf("Names = %q", got)
	}
}
