// Package visit is external to the observed set: it calls back the function
// values and interface values that observed code hands it, during the call
// or later on a goroutine of its own (like net/http).
package visit

import (
	"fmt"
	"io"
	"sync"
)

// Each calls f for every item in order until f returns false, and returns
// how many items it visited.
func Each(items []string, f func(i int, s string) bool) int {
	for i, s := range items {
		if !f(i, s) {
			return i + 1
		}
	}
	return len(items)
}

// A Handler handles a number.
type Handler interface{ Handle(x int) int }

// HandlerFunc adapts a function to a Handler (as http.HandlerFunc does).
type HandlerFunc func(x int) int

// Handle calls f.
func (f HandlerFunc) Handle(x int) int { return f(x) }

// Apply hands x to h twice and adds the answers.
func Apply(h Handler, x int) int { return h.Handle(x) + h.Handle(x+1) }

// Emit writes msg to w in two pieces.
func Emit(w io.Writer, msg string) error {
	half := len(msg) / 2
	if _, err := io.WriteString(w, msg[:half]); err != nil {
		return err
	}
	_, err := io.WriteString(w, msg[half:])
	return err
}

var (
	mu    sync.Mutex
	later []func(string)
)

// Later registers f to be called by Run.
func Later(f func(suffix string)) {
	mu.Lock()
	later = append(later, f)
	mu.Unlock()
}

// Run calls the registered functions one after the other on a goroutine of
// its own, and waits for it.
func Run(suffix string) {
	mu.Lock()
	fs := later
	later = nil
	mu.Unlock()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, f := range fs {
			f(suffix)
		}
	}()
	<-done
}

// Safe calls f and turns a panic into an error (as net/http does for a
// handler).
func Safe(f func() int) (n int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	return f(), nil
}
