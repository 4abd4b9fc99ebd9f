// Package stock is the observed set of the freshids corpus program (IDs of
// new objects under concurrency): its callers call it from several goroutines at once, and each
// call gives a new object of the observed set (the address of a local
// Level) to external code that decodes into it, as storage's callers give a
// fresh *StockLevel to json.Unmarshal. The capture numbers such an object
// when its goroutine encodes the outcall's arguments, in the order the
// goroutines get there, not in the order of the events.
package stock

import "example.com/freshids/kv"

// Level is the stock of one item.
type Level struct {
	SKU      string
	Qty      int
	Reserved int
}

// Available decodes key's level from db and returns what is not reserved.
func Available(db *kv.DB, key string) (int, error) {
	lv := Level{SKU: key}
	if err := db.Decode(key, &lv); err != nil {
		return 0, err
	}
	return lv.Qty - lv.Reserved, nil
}
