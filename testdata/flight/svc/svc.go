// Package svc is the observed set of the flight recorder's test service:
// it serves simulated requests against state in package variables (per
// user sessions and a request count), which every checkpoint carries, and
// panics on a request it cannot handle.
package svc

import (
	"fmt"
	"strconv"
)

// A Session is what the service keeps about one user.
type Session struct {
	user   string
	visits int
	spent  int
	last   []string // the last few paths asked for
}

var (
	sessions = map[string]*Session{}
	served   int
)

// Handle serves a request of user for path and returns the response. A
// path of "/crash" is the bug: it reads a session that was never opened.
func Handle(user, path string, amount int) string {
	s := sessions[user]
	if path == "/crash" {
		return "crashed at " + strconv.Itoa(s.visits) // s is nil: the panic
	}
	if s == nil {
		s = &Session{user: user}
		sessions[user] = s
	}
	served++
	s.visits++
	s.spent += amount
	s.last = append(s.last, path)
	if len(s.last) > 3 {
		s.last = s.last[1:]
	}
	return fmt.Sprintf("%s %s #%d spent %d", user, path, s.visits, s.spent)
}

// HandleLater serves the request on a goroutine of its own, as a
// service's background work would: a panic there ends the process.
func HandleLater(user, path string, amount int) {
	go Handle(user, path, amount)
}

// Served is the number of requests served so far.
func Served() int { return served }
