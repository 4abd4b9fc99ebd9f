// Package kv is external code (not observed): a store that decodes a
// key's record into the value its caller gives, as json.Unmarshal does.
package kv

import (
	"fmt"
	"reflect"
	"runtime"
	"sync"
)

// DB holds quantities by key.
type DB struct {
	mu  sync.Mutex
	qty map[string]int
}

// Open returns a DB with n keys, "sku-0" to "sku-<n-1>".
func Open(n int) *DB {
	db := &DB{qty: map[string]int{}}
	for i := range n {
		db.qty[fmt.Sprintf("sku-%d", i)] = 10 * (i + 1)
	}
	return db
}

// Decode sets the Qty and Reserved fields of the struct v points to.
func (db *DB) Decode(key string, v any) error {
	runtime.Gosched() // let the callers' goroutines interleave
	db.mu.Lock()
	q, ok := db.qty[key]
	db.mu.Unlock()
	if !ok {
		return fmt.Errorf("kv: no key %q", key)
	}
	rv := reflect.ValueOf(v).Elem()
	rv.FieldByName("Qty").SetInt(int64(q))
	rv.FieldByName("Reserved").SetInt(int64(len(key)))
	return nil
}
