package fieldsoverlap_test

import (
	"testing"

	"example.com/repros/fieldsoverlap"
)

func decode(r *fieldsoverlap.Request) { r.Customer = "cust-0030" }

// Fixed: the returned handler runs on a goroutine of its own, as
// net/http runs handlers; the test's next incall found the decoded
// request's field changed and recorded a WRITE_IN of an object only orphan
// events know. Now such objects are not watched: the log replays.
func TestDecodeInHandlerGoroutine(t *testing.T) {
	h := fieldsoverlap.Handler()
	got := make(chan string)
	go func() { got <- h(decode) }()
	if c := <-got; c != "cust-0030" {
		t.Fatalf("handler = %q", c)
	}
	fieldsoverlap.Ping()
}

// Fixed: the test calls a returned handler on its own goroutine;
// the handler's orphan outcall left the goroutine marked as running
// observed code, so the test's later incall (Twice) was not recorded and
// replay did not check it. Now it is recorded and checked.
func TestIncallAfterHandlerOnSameGoroutine(t *testing.T) {
	fieldsoverlap.Ping()
	h := fieldsoverlap.Greeter()
	if g := h(func() string { return "cust-0030" }); g != "hello cust-0030" {
		t.Fatalf("handler = %q", g)
	}
	if n := fieldsoverlap.Twice(21); n != 42 {
		t.Fatalf("Twice(21) = %d", n)
	}
}

// The spurious WRITE_IN on the test's own goroutine (fixed): the
// decoded request's field, changed by the handler's orphan outcall, gave
// the next incall a WRITE_IN of an object only orphan events know.
func TestDecodeInHandlerOnSameGoroutine(t *testing.T) {
	fieldsoverlap.Ping()
	h := fieldsoverlap.Handler()
	if c := h(decode); c != "cust-0030" {
		t.Fatalf("handler = %q", c)
	}
	fieldsoverlap.Ping()
}
