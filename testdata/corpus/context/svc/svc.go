// Package svc is the observed set: it receives contexts from its callers,
// asks them for their error, deadline and values, waits for their
// cancellation, derives contexts and passes them on.
package svc

import (
	"context"
	"errors"
	"fmt"
	"time"

	"example.com/context/ext"
)

type userKey struct{}

// UserKey is the context key of the calling user's name.
var UserKey = userKey{}

// Handle looks id up for the user named by the context, unless the context
// is already done.
func Handle(ctx context.Context, id string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("handle %s: %w", id, err)
	}
	user, _ := ctx.Value(UserKey).(string)
	_, hasDeadline := ctx.Deadline()
	v, err := ext.Lookup(ctx, id)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s:%s (deadline %v)", user, v, hasDeadline), nil
}

// Wait returns the next message of in, or the context's error once it is
// cancelled.
func Wait(ctx context.Context, in <-chan string) (string, error) {
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case msg := <-in:
		return msg, nil
	}
}

// Bounded looks id up with at most d to spare.
func Bounded(ctx context.Context, d time.Duration, id string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	v, err := ext.Lookup(ctx, id)
	if errors.Is(err, context.DeadlineExceeded) {
		return "too slow", nil
	}
	return v, err
}
