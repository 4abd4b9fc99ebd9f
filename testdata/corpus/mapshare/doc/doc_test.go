package doc_test

import (
	"testing"

	"example.com/mapshare/doc"
)

func TestMetaFilledByCaller(t *testing.T) {
	d := doc.New()
	m := d.Meta()
	m["prefix"] = "fn-"
	m["lang"] = "en"
	if got := d.Describe(); got != "lang=en;prefix=fn-;" {
		t.Fatalf("Describe() = %q", got)
	}
	delete(d.Meta(), "lang")
	d.Meta()["prefix"] = "note-"
	if got := d.Describe(); got != "prefix=note-;" {
		t.Fatalf("Describe() = %q", got)
	}
}

func TestTableEditedByCaller(t *testing.T) {
	c := doc.NewCounter()
	c.Add("a b a")
	tab := c.Table()
	tab["a"] = 10
	delete(tab, "b")
	c.Add("b")
	if got := c.Total(); got != 11 {
		t.Fatalf("Total() = %d", got)
	}
}
