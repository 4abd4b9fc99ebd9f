package csvbuffer_test

import (
	"testing"

	"example.com/repros/csvbuffer"
)

func TestFormat(t *testing.T) {
	got := csvbuffer.Format(map[string]string{"b": "2,3", "a": "1"})
	if want := `[a=1,"b=2,3"]`; got != want {
		t.Fatalf("Format = %s, want %s", got, want)
	}
}
