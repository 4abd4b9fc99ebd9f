// Package orphancallback reproduces a fault the study found (random sets
// observing examples/shop/api and examples/shop/storage): fieldsoverlap's
// spurious WRITE_IN, one goroutine further. An observed closure
// returned to external code (api's handlers, which net/http calls) runs
// outside any incall and passes another observed closure to external code
// that calls it on a goroutine of its own (storage's db.update passes its
// transaction to bolt's Batch, which runs every caller's function on one
// goroutine). That callback decodes into a fresh value of an observed
// type with exported fields through an outcall (json.Unmarshal). Replay
// skips the callback (its function value was passed by an outcall that
// replay skips: returnedfunc), but capture watched the objects it numbered, so the
// test's next incall recorded a WRITE_IN of the decoded fields on an
// object replay does not know.
package orphancallback

// Order is decoded by external code into a fresh value.
type Order struct {
	ID string
}

// Handler returns a handler that hands batch a function reading an order:
// batch runs it on a goroutine of its own; the function decodes into a
// fresh Order (an outcall that fills it).
func Handler() func(batch func(func()), decode func(*Order)) string {
	return func(batch func(func()), decode func(*Order)) string {
		var id string
		batch(func() {
			o := new(Order)
			decode(o)
			id = o.ID
		})
		return id
	}
}

// Ping is an incall that does nothing.
func Ping() {}
