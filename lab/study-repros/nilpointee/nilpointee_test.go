package nilpointee

import "testing"

func TestAppendAfterReset(t *testing.T) {
	var got []string
	if n := Append(&got); n != 0 || got == nil {
		t.Fatalf("first: %d %v", n, got)
	}
	got = nil
	if n := Append(&got, "a"); n != 1 || got[0] != "a" {
		t.Fatalf("second: %d %v", n, got)
	}
}
