// Package testtype: an in-package test passes a value of a type declared
// in the package's own _test.go file through an interface parameter
// (examples/shop/inventory's tests pass their memStore to inventory.New).
// The replay harness links the package without its test files, so that
// type does not exist there.
package testtype

// Store gives the stock of an item.
type Store interface {
	Stock(item string) (int, error)
}

// Service answers availability questions from a Store.
type Service struct{ store Store }

// New returns a Service reading from store.
func New(store Store) *Service { return &Service{store: store} }

// Available reports whether item is in stock.
func (s *Service) Available(item string) bool {
	n, err := s.store.Stock(item)
	return err == nil && n > 0
}
