// Package ledger is the observed set of the rotation test's service: its
// state (accounts by name, an operation count) lives in package variables
// and in objects they reach, which every checkpoint, and so every segment
// of a rotated log, carries.
package ledger

import (
	"os"
	"strconv"
)

// An Account is the state of one account.
type Account struct {
	name    string
	balance int
	recent  []int // the last few amounts
}

var (
	accounts = map[string]*Account{}
	ops      int
	// currency is read while the package initialises: an outcall of the
	// run's initialisation, which every segment holds and replays.
	currency = os.Getenv("LEDGER_CURRENCY")
)

// Deposit adds amount to the account name (opened on first use) and
// returns its balance.
func Deposit(name string, amount int) int {
	a := accounts[name]
	if a == nil {
		a = &Account{name: name}
		accounts[name] = a
	}
	ops++
	a.balance += amount
	a.recent = append(a.recent, amount)
	if len(a.recent) > 4 {
		a.recent = a.recent[1:]
	}
	return a.balance
}

// Report describes the ledger: the number of operations so far and the
// total of every balance.
func Report() string {
	total := 0
	for _, a := range accounts {
		total += a.balance
	}
	return strconv.Itoa(ops) + " ops, total " + strconv.Itoa(total) + currency
}
