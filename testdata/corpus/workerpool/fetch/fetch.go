// Package fetch is external code (not observed): a client whose requests
// take a while, so that a worker pool's workers interleave.
package fetch

import (
	"runtime"
	"sync/atomic"
)

// Client counts the requests it served.
type Client struct{ served atomic.Int64 }

// Do serves worker's request for path: the length of the path, plus the
// number of requests served before it (which depends on the order of the
// requests, as a server's state does).
func (c *Client) Do(worker int, path string) int {
	runtime.Gosched()
	return len(path) + int(c.served.Add(1))%3
}
