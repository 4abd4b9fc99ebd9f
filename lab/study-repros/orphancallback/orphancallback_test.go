package orphancallback_test

import (
	"testing"

	"example.com/repros/orphancallback"
)

// kept holds the decoded orders, so that they are still alive (and, before
// the fix, watched) at the test's next incall.
var kept []*orphancallback.Order

func decode(o *orphancallback.Order) {
	o.ID = "ord-00000001"
	kept = append(kept, o)
}

// batch runs f on a goroutine of its own and waits, as bolt's Batch runs
// its callers' functions.
func batch(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	<-done
}

// Fixed: the returned handler runs on a goroutine of its own, as net/http
// runs handlers, and its function runs on batch's goroutine. Before the
// fix the test's next incall (Ping) recorded a WRITE_IN of the decoded
// order's ID, an object only skipped events know.
func TestDecodeInCallbackOfOrphanOutcall(t *testing.T) {
	h := orphancallback.Handler()
	got := make(chan string)
	go func() { got <- h(batch, decode) }()
	if id := <-got; id != "ord-00000001" {
		t.Fatalf("handler = %q", id)
	}
	orphancallback.Ping()
}

// The same with the handler called on the test's goroutine.
func TestDecodeInCallbackOfOrphanOutcallSameGoroutine(t *testing.T) {
	orphancallback.Ping()
	h := orphancallback.Handler()
	if id := h(batch, decode); id != "ord-00000001" {
		t.Fatalf("handler = %q", id)
	}
	orphancallback.Ping()
}
