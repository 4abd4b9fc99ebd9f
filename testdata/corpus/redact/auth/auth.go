// Package auth is the observed package of the redact corpus program: it
// receives a password, a card number, a connection string from the
// environment, an API token and a private key, and passes each on to
// external code (backend) without computing on it. Replay must pass with
// none of them in the log.
package auth

import (
	"strings"

	"example.com/redact/backend"
)

// Login is what a sign-in form posts.
type Login struct {
	User     string
	Password string // redacted by its name (a default name)
	Card     string //capture:redact
}

// Result is what SignIn returns.
type Result struct {
	OK      bool
	Receipt string
}

// SignIn checks the password with the backend and charges the card.
func SignIn(l *Login, cents int) Result {
	user := strings.ToLower(l.User)
	ok := backend.Verify(user, l.Password)
	if !ok {
		return Result{}
	}
	return Result{OK: true, Receipt: backend.Charge(l.Card, cents)}
}

// Connect opens the backend with a connection string that holds a
// password.
//
//capture:redact dsn
func Connect(dsn string) error {
	return backend.Open(dsn)
}

// SetToken hands the backend an API token (redacted by its parameter's
// name).
func SetToken(apiToken string) {
	backend.UseToken(apiToken)
}

// Sign signs msg with a private key given as bytes.
func Sign(privateKey []byte, msg string) string {
	return backend.Sign(privateKey, msg)
}
