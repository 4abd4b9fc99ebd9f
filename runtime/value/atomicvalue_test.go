package value

import (
	"bytes"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// atomicHolder holds an atomic.Value the way context.cancelCtx does.
type atomicHolder struct {
	N int
	V atomic.Value
}

// TestAtomicValueWhileStored encodes atomic.Values while another goroutine
// makes their first Store: a plain read of the interface could see the
// marker of a first Store in progress as a type word and crash the process
// ("name offset base pointer out of range"), as chi's
// TestMuxContextIsThreadSafe did, its request's context cancelled by
// another goroutine while ServeHTTP's argument was encoded.
func TestAtomicValueWhileStored(t *testing.T) {
	var cur atomic.Pointer[atomicHolder]
	stop := make(chan struct{})
	done := make(chan struct{})
	stored := errors.New("stored")
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			h := &atomicHolder{N: 1}
			cur.Store(h)
			h.V.Store(stored)
		}
	}()
	defer func() { close(stop); <-done }()
	deadline := time.Now().Add(300 * time.Millisecond)
	seen := 0
	for n := 0; time.Now().Before(deadline) || n < 1000; n++ {
		h := cur.Load()
		if h == nil {
			continue
		}
		e := &Encoder{Objects: newTable(), Deep: true} // contents, as a reflected argument's
		Encode(e, h)
		if !bytes.Contains(e.Buf, []byte("atomicHolder")) {
			t.Fatalf("encoded % x: no contents", e.Buf)
		}
		seen++
	}
	if seen == 0 {
		t.Fatal("nothing encoded")
	}
}

// TestAtomicValueEncodedAsStruct: an atomic.Value is encoded as the struct
// of one interface field it is, so logs that hold one decode as before.
func TestAtomicValueEncodedAsStruct(t *testing.T) {
	type plain struct {
		N int
		V struct{ v any }
	}
	for _, x := range []any{nil, "s", 42} {
		h := &atomicHolder{N: 7}
		p := &plain{N: 7}
		if x != nil {
			h.V.Store(x)
			p.V.v = x
		}
		a, b := &Encoder{}, &Encoder{}
		Encode(a, *h)
		Encode(b, *p)
		if !bytes.Equal(a.Buf, b.Buf) {
			t.Errorf("%v: atomic.Value encodes as % x, its struct as % x", x, a.Buf, b.Buf)
		}
	}
}
