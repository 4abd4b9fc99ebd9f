// Package backend is external to the observed set: a tiny key-value
// database whose handle replay replaces with a placeholder.
package backend

import (
	"errors"
	"fmt"
)

// ErrMissing is returned for unknown keys.
var ErrMissing = errors.New("backend: missing key")

// DB is a database handle.
type DB struct{ data map[string]string }

// Connect opens a database.
func Connect(name string) *DB {
	return &DB{data: map[string]string{"a": "alpha", "b": "beta", "bad": ""}}
}

// Lookup returns the value of key.
func (db *DB) Lookup(key string) (string, error) {
	v, ok := db.data[key]
	if !ok {
		return "", ErrMissing
	}
	if v == "" {
		return "", &CorruptError{Key: key}
	}
	return v, nil
}

// CorruptError reports a damaged entry.
type CorruptError struct{ Key string }

func (e *CorruptError) Error() string { return fmt.Sprintf("backend: corrupt entry %q", e.Key) }
