// Package ledger is the observed set of the lockcb corpus program (like shop's
// storage): its callers call it from several goroutines at once, and each
// call passes a closure to external code that runs every caller's closure on
// a goroutine of its own, one at a time (bolt's Batch): the external code,
// not the callers, decides which closure runs first, and each closure's
// CALL_IN names the CALL_OUT that passed it.
package ledger

import (
	"fmt"

	"example.com/lockcb/store"
)

// Add adds n to key's balance and returns the new balance.
func Add(db *store.DB, key string, n int) (int, error) {
	var after int
	err := db.Batch(func(tx *store.Tx) error {
		if n < 0 {
			return fmt.Errorf("ledger: add %d to %s: negative amount", n, key)
		}
		after = tx.Get(key) + n
		tx.Put(key, after)
		return nil
	})
	return after, err
}
