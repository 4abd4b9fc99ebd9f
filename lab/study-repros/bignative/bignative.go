// Package bignative: an observed decimal type holding a *big.Int that
// outcalls make (big.NewInt, new(big.Int).Set(x)), whose arithmetic runs
// math/big natively on big.Int values it holds, reading the held pointer's
// pointee (shopspring/decimal's quoRem: `aa = *d.value`,
// `aa.Mul(d.value, ...)`, `q.QuoRem(&aa, bb, &r)`).
package bignative

import "math/big"

// Decimal is value × 10^exp.
type Decimal struct {
	value *big.Int
	exp   int32
}

// New returns x × 10^exp.
func New(x int64, exp int32) Decimal {
	return Decimal{value: big.NewInt(x), exp: exp}
}

// Copy returns d with a value of its own.
func (d Decimal) Copy() Decimal {
	return Decimal{value: new(big.Int).Set(d.value), exp: d.exp}
}

// QuoInt returns d / d2 truncated to an integer (exp 0), both of the same
// exponent.
func (d Decimal) QuoInt(d2 Decimal) Decimal {
	var a, b big.Int
	a = *d.value
	b.Abs(d2.value)
	var q, r big.Int
	q.QuoRem(&a, &b, &r)
	return Decimal{value: &q}
}

// String formats d's value and exponent.
func (d Decimal) String() string {
	return d.value.String() + "e" + big.NewInt(int64(d.exp)).String()
}
