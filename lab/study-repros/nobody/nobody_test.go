package nobody_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"example.com/repros/nobody"
)

func TestNoBody(t *testing.T) {
	r := httptest.NewRequest("GET", "/", nil)
	if got := nobody.Describe(r); got != "http.noBody 0" {
		t.Errorf("Describe = %q", got)
	}
	if got := nobody.Fields(r); got < 10 {
		t.Errorf("Fields = %d", got)
	}
}

func TestDiscard(t *testing.T) {
	if !nobody.Sink(io.Discard) {
		t.Error("io.Discard is no sink")
	}
	if nobody.Sink(&strings.Builder{}) {
		t.Error("a builder is a sink")
	}
	if got := nobody.Fields(http.NoBody); got != 0 {
		t.Errorf("Fields(NoBody) = %d", got)
	}
}
