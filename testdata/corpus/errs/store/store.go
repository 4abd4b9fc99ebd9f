// Package store is the observed package of the errs corpus program: errors
// with sentinel identity, wrapped chains, errors.Is/As on errors from
// outcalls, and calls through an interface whose dynamic type is external.
package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"example.com/errs/backend"
)

// ErrNotFound is returned (wrapped) for unknown keys.
var ErrNotFound = errors.New("store: not found")

// Store is a cache over a backend.
type Store struct {
	db   *backend.DB
	hits int
}

// Open connects to the backend.
func Open(name string) *Store { return &Store{db: backend.Connect(name)} }

// Get returns the value of key: wrapped ErrNotFound for a missing key,
// "corrupt" for a corrupt one (errors.As), the value otherwise.
func (s *Store) Get(key string) (string, error) {
	v, err := s.db.Lookup(key)
	if errors.Is(err, backend.ErrMissing) {
		return "", fmt.Errorf("get %q: %w", key, ErrNotFound)
	}
	var ce *backend.CorruptError
	if errors.As(err, &ce) {
		return "corrupt:" + ce.Key, nil
	}
	if err != nil {
		return "", err
	}
	s.hits++
	return v, nil
}

// Hits returns the number of successful gets.
func (s *Store) Hits() int { return s.hits }

// Load reads a file; a missing file is reported as ErrNotFound through
// errors.Is on the *fs.PathError the outcall returned.
func Load(path string) (int, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return 0, fmt.Errorf("load (%s): %w", pe.Op, ErrNotFound)
		}
		return 0, ErrNotFound
	}
	if err != nil {
		return 0, err
	}
	return len(b), nil
}

// Count reads r to the end (interface calls on an external reader, io.EOF).
func Count(r io.Reader) (int, error) {
	buf := make([]byte, 3)
	n := 0
	for {
		k, err := r.Read(buf)
		n += k
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}
