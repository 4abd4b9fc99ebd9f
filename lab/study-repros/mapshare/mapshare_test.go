package mapshare_test

import (
	"testing"

	"example.com/repros/mapshare"
)

func TestMetaWrittenByCaller(t *testing.T) {
	d := mapshare.New()
	d.Meta()["prefix"] = "fn-"
	if got := d.Prefix(); got != "fn-" {
		t.Fatalf("Prefix() = %q", got)
	}
	if n := len(d.Meta()); n != 1 {
		t.Fatalf("len(Meta()) = %d", n)
	}
}
