// Package num reads, natively, the pointees of pointers that cross its
// boundary: a pointer to a slice its caller owns (`ps *[]float64`, as
// montanaflynn/stats' Describe takes its percentiles) and the *big.Int
// values that outcalls make and return (big.NewInt, new(big.Int).Set(x)),
// on which math/big runs natively on values the package holds, as
// shopspring/decimal divides. Replay must hand the code those pointees.
package num

import "math/big"

// Description summarises a dataset.
type Description struct {
	Count       int
	Percentiles []percentile
}

type percentile struct {
	Percentile float64
	Value      float64
}

// Describe describes sorted input and, for each of *ps (when ps is not
// nil), the value at that percentile.
func Describe(input []float64, ps *[]float64) *Description {
	d := Description{Count: len(input)}
	if ps != nil {
		for _, p := range *ps {
			i := int(p / 100 * float64(len(input)-1))
			d.Percentiles = append(d.Percentiles, percentile{p, input[i]})
		}
	}
	return &d
}

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
