package unexported

import "testing"

func TestParseUnexported(t *testing.T) {
	if k, v := parse("a=b"); k != "a" || v != "b" {
		t.Fatalf("parse = %q, %q", k, v)
	}
}

func TestParseExported(t *testing.T) {
	if k, v := Parse("a=b"); k != "a" || v != "b" {
		t.Fatalf("Parse = %q, %q", k, v)
	}
}
