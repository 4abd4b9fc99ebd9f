// Package fieldsoverlap reproduces a fault the study found (the shop's
// app.TestShopUnderLoad with examples/shop/api observed): an observed
// closure returned to external code (api's Server.Handler, an
// http.HandlerFunc that net/http calls) runs outside any incall; it
// decodes a request into a fresh value of an observed type with exported
// fields through an outcall (json.Decoder.Decode). The orphan outcall
// gives the object an ID, so its exported fields are watched, and the
// decoder's writes, made outside any incall, look like a test's writes
// between incalls: the next incall records a WRITE_IN of an object that
// only orphan events (which replay skips) know.
//
// It also reproduces a second fault: the same kind of closure called by the test on
// its own goroutine left the goroutine marked as running observed code,
// so the test's later incalls were not recorded.
package fieldsoverlap

// Request is decoded by external code into a fresh value.
type Request struct {
	Customer string
}

// Handler returns a handler that passes a fresh Request to decode (an
// outcall that fills it, as json.Decoder.Decode does) and returns the
// customer it got.
func Handler() func(decode func(*Request)) string {
	return func(decode func(*Request)) string {
		var r Request
		decode(&r)
		return r.Customer
	}
}

// Greeter returns a handler that gets a name through an outcall passing
// no object of the observed set (the second fault without the first).
func Greeter() func(name func() string) string {
	return func(name func() string) string {
		return "hello " + name()
	}
}

// Ping is an incall that does nothing.
func Ping() {}

// Twice is an incall whose result replay checks.
func Twice(n int) int { return 2 * n }
