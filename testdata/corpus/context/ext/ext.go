// Package ext is external code that takes contexts: a slow lookup that
// gives up when its context is done.
package ext

import (
	"context"
	"time"
)

// Lookup answers after a short while, or fails with the context's error.
func Lookup(ctx context.Context, id string) (string, error) {
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case <-time.After(20 * time.Millisecond):
		return "value-of-" + id, nil
	}
}
