package codec

import (
	"testing"
	"time"
)

// TestDecodeSame decodes into a field that already holds the value
// decoded: format 9 did not record what UnmarshalText wrote there, and
// its replay, which leaves the field as it was, still passes.
func TestDecodeSame(t *testing.T) {
	when := time.Date(2012, 1, 2, 15, 16, 17, 0, time.UTC)
	x := struct {
		When time.Time
		Name string
	}{When: when}
	if err := Decode("when=2012-01-02T15:16:17Z\nname=db", &x); err != nil {
		t.Fatal(err)
	}
	if !x.When.Equal(when) || x.Name != "db" {
		t.Fatalf("got %+v", x)
	}
}

// TestParseZero makes a time.Time through reflect.New and UnmarshalText,
// the zero time: format 9 did not record what UnmarshalText wrote.
func TestParseZero(t *testing.T) {
	zero, err := Parse("0001-01-01T00:00:00Z", time.Time{})
	if err != nil || !zero {
		t.Fatalf("Parse = %v, %v", zero, err)
	}
}

// TestRequired gets a multi-error, which format 9 recorded by its message.
func TestRequired(t *testing.T) {
	err := Required([]string{"name", "city"}, []string{"", ""})
	if err == nil || err.Error() != "name: required; city: required" {
		t.Fatalf("Required = %v", err)
	}
}
