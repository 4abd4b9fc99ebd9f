package tax

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestCompute(t *testing.T) {
	calc := DefaultCalculator()
	tests := []struct {
		name   string
		region string
		lines  []Line
		want   Assessment
	}{
		{
			// 1000*700/10700 = 65.42 -> 65; 5000*1900/11900 = 798.32 -> 798.
			name:   "DE inclusive, reduced and standard rate",
			region: "DE",
			lines:  []Line{{"coffee", 1000}, {"equipment", 5000}},
			want: Assessment{Region: "DE", Inclusive: true, TaxCents: 863, TotalCents: 6000,
				Groups: []Group{{700, 1000, 65}, {1900, 5000, 798}}},
		},
		{
			// Per invoice: 2010*700/10700 = 131.50 -> 131 (131.495...).
			name:   "DE rounds once per rate",
			region: "DE",
			lines:  []Line{{"coffee", 1005}, {"tea", 1005}},
			want: Assessment{Region: "DE", Inclusive: true, TaxCents: 131, TotalCents: 2010,
				Groups: []Group{{700, 2010, 131}}},
		},
		{
			// Per line: 1005*2000/12000 = 167.5 -> 168, twice = 336 (per invoice would be 335).
			name:   "GB rounds per line",
			region: "GB",
			lines:  []Line{{"equipment", 1005}, {"merch", 1005}, {"coffee", 999}},
			want: Assessment{Region: "GB", Inclusive: true, TaxCents: 336, TotalCents: 3009,
				Groups: []Group{{0, 999, 0}, {2000, 2010, 336}}},
		},
		{
			// 1999*725/10000 = 144.93 -> 145, added on top.
			name:   "US-CA exclusive",
			region: "US-CA",
			lines:  []Line{{"coffee", 1999}},
			want: Assessment{Region: "US-CA", TaxCents: 145, TotalCents: 2144,
				Groups: []Group{{725, 1999, 145}}},
		},
		{
			// 625*888/10000 = 55.5 -> 56 (to even); 1875*888/10000 = 166.5 -> 166 (to even).
			name:   "US-NY half to even per line",
			region: "US-NY",
			lines:  []Line{{"coffee", 625}, {"equipment", 1875}},
			want: Assessment{Region: "US-NY", TaxCents: 222, TotalCents: 2722,
				Groups: []Group{{888, 2500, 222}}},
		},
		{
			// 1099*1000/11000 = 99.91 -> 99 (down); 1080*800/10800 = 80.
			name:   "JP truncates",
			region: "JP",
			lines:  []Line{{"equipment", 1099}, {"tea", 1080}},
			want: Assessment{Region: "JP", Inclusive: true, TaxCents: 179, TotalCents: 2179,
				Groups: []Group{{800, 1080, 80}, {1000, 1099, 99}}},
		},
		{
			name:   "US-OR has no sales tax",
			region: "US-OR",
			lines:  []Line{{"equipment", 12345}},
			want: Assessment{Region: "US-OR", TaxCents: 0, TotalCents: 12345,
				Groups: []Group{{0, 12345, 0}}},
		},
		{
			name:   "no lines",
			region: "FR",
			want:   Assessment{Region: "FR", Inclusive: true, Groups: []Group{}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := calc.Compute(context.Background(), tc.region, tc.lines)
			if err != nil {
				t.Fatalf("Compute: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Compute(%s, %v)\n got %+v\nwant %+v", tc.region, tc.lines, got, tc.want)
			}
		})
	}
}

func TestComputeErrors(t *testing.T) {
	calc := DefaultCalculator()
	tests := []struct {
		name   string
		region string
		lines  []Line
		want   error
	}{
		{"unknown region", "XX", []Line{{"coffee", 100}}, ErrUnknownRegion},
		{"region is case sensitive", "de", nil, ErrUnknownRegion},
		{"negative amount", "DE", []Line{{"coffee", 100}, {"tea", -1}}, ErrInvalidAmount},
		{"amount too large", "US-CA", []Line{{"coffee", MaxAmountCents + 1}}, ErrInvalidAmount},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := calc.Compute(context.Background(), tc.region, tc.lines)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Compute error = %v, want %v", err, tc.want)
			}
		})
	}
}

// The same lines give different cents depending only on the rounding
// granularity: that difference is what a tax rule change would show.
func TestPerLineVersusPerInvoice(t *testing.T) {
	lines := []Line{{"x", 1005}, {"x", 1005}}
	for _, tc := range []struct {
		perLine bool
		want    int64
	}{{false, 335}, {true, 336}} {
		c, err := NewCalculator([]Rule{{Region: "T", StandardBP: 2000, Inclusive: true, PerLine: tc.perLine}})
		if err != nil {
			t.Fatal(err)
		}
		a, err := c.Compute(context.Background(), "T", lines)
		if err != nil {
			t.Fatal(err)
		}
		if a.TaxCents != tc.want {
			t.Errorf("PerLine=%v: tax %d, want %d", tc.perLine, a.TaxCents, tc.want)
		}
	}
}

func TestDivRound(t *testing.T) {
	tests := []struct {
		num, den       int64
		up, even, down int64
	}{
		{0, 7, 0, 0, 0},
		{14, 7, 2, 2, 2},
		{15, 10, 2, 2, 1}, // 1.5
		{25, 10, 3, 2, 2}, // 2.5
		{24, 10, 2, 2, 2},
		{26, 10, 3, 3, 2},
		{35, 10, 4, 4, 3}, // 3.5
		{1, 3, 0, 0, 0},
		{2, 3, 1, 1, 0},
	}
	for _, tc := range tests {
		for mode, want := range map[Rounding]int64{HalfUp: tc.up, HalfEven: tc.even, Down: tc.down} {
			if got := divRound(tc.num, tc.den, mode); got != want {
				t.Errorf("divRound(%d, %d, %v) = %d, want %d", tc.num, tc.den, mode, got, want)
			}
		}
	}
}

func TestNewCalculatorRejectsBadRules(t *testing.T) {
	tests := []struct {
		name  string
		rules []Rule
		want  string
	}{
		{"empty region", []Rule{{StandardBP: 100}}, "empty region"},
		{"duplicate", []Rule{{Region: "A"}, {Region: "A"}}, "defined twice"},
		{"rate too high", []Rule{{Region: "A", StandardBP: 10001}}, "outside 0..10000"},
		{"negative reduced", []Rule{{Region: "A", ReducedBP: map[string]int64{"tea": -5}}}, `rate for "tea"`},
		{"bad rounding", []Rule{{Region: "A", Rounding: Rounding(9)}}, "unknown rounding"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewCalculator(tc.rules)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("NewCalculator error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestRegionsSorted(t *testing.T) {
	got := DefaultCalculator().Regions(context.Background())
	want := []string{"DE", "FR", "GB", "JP", "US-CA", "US-NY", "US-OR"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Regions() = %v, want %v", got, want)
	}
}

func BenchmarkCompute(b *testing.B) {
	calc := DefaultCalculator()
	lines := []Line{{"coffee", 2500}, {"equipment", 4999}, {"tea", 800}, {"merch", 1500}}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := calc.Compute(ctx, "DE", lines); err != nil {
			b.Fatal(err)
		}
	}
}
