package fieldsoverlap_test

import (
	"testing"

	"example.com/repros/fieldsoverlap"
)

func decode(r *fieldsoverlap.Request) { r.Customer = "cust-0030" }

// F61: the returned handler runs on a goroutine of its own, as net/http
// runs handlers; the test's next incall finds the decoded request's field
// changed.
func TestDecodeInHandlerGoroutine(t *testing.T) {
	h := fieldsoverlap.Handler()
	got := make(chan string)
	go func() { got <- h(decode) }()
	if c := <-got; c != "cust-0030" {
		t.Fatalf("handler = %q", c)
	}
	fieldsoverlap.Ping()
}

// F62: the test calls the returned handler on its own goroutine; the
// orphan outcall leaves the goroutine marked as running observed code, so
// the test's later incall (Ping) is not recorded.
func TestIncallAfterHandlerOnSameGoroutine(t *testing.T) {
	fieldsoverlap.Ping()
	h := fieldsoverlap.Handler()
	if c := h(decode); c != "cust-0030" {
		t.Fatalf("handler = %q", c)
	}
	fieldsoverlap.Ping()
}
