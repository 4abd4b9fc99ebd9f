package multierror

import "testing"

func TestErrorByField(t *testing.T) {
	err := Validate(map[string]string{"title": "My123", "author": "ann", "ip": "1.2.3"})
	if err == nil {
		t.Fatal("no error")
	}
	if got := ErrorByField(err, "title"); got != "My123 is not lower-case letters" {
		t.Errorf("title: %q", got)
	}
	if got := ErrorByField(err, "author"); got != "" {
		t.Errorf("author: %q", got)
	}
}
