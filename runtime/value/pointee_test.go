package value

import (
	"math/big"
	"strings"
	"testing"
)

// A pointer whose pointee observed code reads natively (a type of no
// package, a math/big number) carries its pointee at every sight, so that
// replay's object for the ID holds what external code last wrote
// (pointee.go); an earlier format's player writes it bare.
func TestPointeesReadNativelyEveryTime(t *testing.T) {
	ps := []float64{10, 50}
	x := big.NewInt(7)
	type args struct {
		Ps *[]float64
		X  *big.Int
		N  *int
	}
	n := 3
	e := &Encoder{Objects: newTable()}
	Encode(e, args{&ps, x, &n})
	first := len(e.Buf)
	// External code writes the pointees between two crossings.
	ps = append(ps, 90)
	x.Mul(x, big.NewInt(6))
	n = 4
	Encode(e, args{&ps, x, &n})
	if got, want := render1(e.Buf[first:]), "{*[]float64#1=[10 50 90], *math/big.Int#2={false, [42]}, *int#3=4}"; got != want {
		t.Errorf("second sight = %s, want %s", got, want)
	}

	// Replay decodes each sight into its object for the ID.
	d := &Decoder{Buf: e.Buf, Resolver: newTable()}
	a := Decode[args](d)
	if d.Err != nil || len(*a.Ps) != 2 || a.X.Int64() != 7 || *a.N != 3 {
		t.Fatalf("first sight: %v, %v, %v, %v", d.Err, *a.Ps, a.X, *a.N)
	}
	b := Decode[args](d)
	if d.Err != nil || b.Ps != a.Ps || b.X != a.X || b.N != a.N {
		t.Fatalf("second sight is another object: %v", d.Err)
	}
	if len(*a.Ps) != 3 || (*a.Ps)[2] != 90 || a.X.Int64() != 42 || *a.N != 4 {
		t.Fatalf("second sight not written into the object: %v, %v, %v", *a.Ps, a.X, *a.N)
	}

	// A *big.Int at the start of a *big.Rat known by the same ID (Rat.Num)
	// is written into the Rat's numerator.
	r := big.NewRat(3, 4)
	e = &Encoder{Objects: newTable()}
	Encode(e, r)
	r.SetFrac64(5, 4)
	Encode(e, r.Num())
	d = &Decoder{Buf: e.Buf, Resolver: newTable()}
	rr := Decode[*big.Rat](d)
	num := Decode[*big.Int](d)
	if d.Err != nil || rr.String() != "5/4" || num.Int64() != 5 {
		t.Fatalf("Rat then its Num: %v, %v, %v", d.Err, rr, num)
	}

	// A player of a format 5 log writes them as references, as it holds them.
	SetBarePointees(true)
	defer SetBarePointees(false)
	e = &Encoder{Objects: newTable()}
	Encode(e, args{&ps, x, &n})
	if got := render1(e.Buf); strings.Contains(got, "=") {
		t.Errorf("bare: %s", got)
	}
}
