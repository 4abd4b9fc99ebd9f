// Package store is external code (not observed) that runs its callers'
// functions on a goroutine of its own, one at a time, as bolt's DB.Batch
// does: which caller's function runs first is decided by the store, not by
// the callers.
package store

// DB is a map owned by the goroutine that runs the batches.
type DB struct {
	data  map[string]int
	queue chan call
}

type call struct {
	fn   func(tx *Tx) error
	done chan error
}

// Open returns an empty DB and starts its runner.
func Open() *DB {
	db := &DB{data: map[string]int{}, queue: make(chan call)}
	go db.run()
	return db
}

func (db *DB) run() {
	for c := range db.queue {
		c.done <- c.fn(&Tx{db: db})
	}
}

// Close stops the runner.
func (db *DB) Close() { close(db.queue) }

// Tx is the view of the DB that a Batch function gets.
type Tx struct{ db *DB }

// Get returns the value of key.
func (tx *Tx) Get(key string) int { return tx.db.data[key] }

// Put sets key to v.
func (tx *Tx) Put(key string, v int) { tx.db.data[key] = v }

// Batch runs fn on the DB's runner goroutine and returns its error.
func (db *DB) Batch(fn func(tx *Tx) error) error {
	c := call{fn: fn, done: make(chan error)}
	db.queue <- c
	return <-c.done
}
