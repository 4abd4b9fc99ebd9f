package check

import "testing"

func TestErrorsByField(t *testing.T) {
	err := Fields([]string{"name", "city", "zip"}, []string{"", "new york", "10001"})
	got := ErrorsByField(err)
	if len(got) != 2 || got["name"] != "empty" || got["city"] != "new york has spaces" {
		t.Errorf("ErrorsByField = %v", got)
	}
	if len(ErrorsByField(Fields([]string{"a"}, []string{"b"}))) != 0 {
		t.Error("errors without failures")
	}
}
