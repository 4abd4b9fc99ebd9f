package probe

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/internal/cputime"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// The values examples/shop sends across its boundary, shaped like its own
// (pricing.Pricer.Quote calling Catalog.Product): an observed receiver, the
// request's context.Context, structs with slices of structs, and sentinel
// errors as exported variables checked for WRITE_IN before every incall.

type benchPricer struct{ rate int }

type benchItem struct {
	SKU string
	Qty int
}

type benchRequest struct {
	Items   []benchItem
	Coupon  string
	Region  string
	Variant string
}

type benchLine struct {
	SKU, Name, Category        string
	Qty                        int
	Unit, Gross, Discount, Net int64
	Rules                      []string
}

type benchQuote struct {
	Variant, Coupon string
	Lines           []benchLine
	Net             int64
}

type benchStore struct{ path string }

type benchProduct struct {
	SKU, Name, Category string
	Cents               int64
}

var benchTypesOnce = func() struct{} {
	value.RegisterOwnType(reflect.TypeFor[benchPricer]())
	value.RegisterOwnType(reflect.TypeFor[benchRequest]())
	value.RegisterOwnType(reflect.TypeFor[benchQuote]())
	return struct{}{}
}()

// benchSentinels: the shop's observed packages export 14 error variables.
var benchSentinels = func() []error {
	var errs []error
	for i := 0; i < 14; i++ {
		errs = append(errs, errors.New("bench: sentinel "+string(rune('a'+i))))
	}
	return errs
}()

// watchBenchSentinels watches the sentinels as generated code does
// (WatchAt) and registers them as sentinels, as _capture_end_init does, for
// the benchmark's duration.
func watchBenchSentinels(b *testing.B) {
	restoreWatched(b)
	for i := range benchSentinels {
		name := "example.com/shop.Err" + string(rune('A'+i))
		value.RegisterSentinel(name, benchSentinels[i])
		WatchAt(&Var{Name: name, Enc: func(s *Stream) { s.Error(benchSentinels[i]) }}, &benchSentinels[i])
	}
}

// benchCtx is a request context as net/http makes it: a cancelCtx over a
// valueCtx.
func benchCtx() (context.Context, context.CancelFunc) {
	type key struct{}
	return context.WithCancel(context.WithValue(context.Background(), key{}, 1))
}

// BenchmarkShopIncall: the probes of one shop request's Quote (CALL_IN with
// receiver, context and request; two Catalog.Product outcalls; RETURN_IN with
// the quote), events handed to a counting function, and its parts.
func BenchmarkShopIncall(b *testing.B) {
	inSite := &Site{Name: "(*example.com/shop/pricing.Pricer).Quote"}
	outSite := &Site{Name: "(example.com/shop/pricing.Catalog).Product"}
	pricer := &benchPricer{}
	store := &benchStore{}
	req := benchRequest{Items: []benchItem{{"EQP-SCL", 2}, {"TEA-GYK-050", 1}}, Region: "US-CA"}
	quote := benchQuote{Variant: "A", Lines: []benchLine{
		{SKU: "EQP-SCL", Name: "Brew scale", Category: "equipment", Qty: 2, Unit: 2990, Gross: 5980, Discount: 598, Net: 5382, Rules: []string{"volume"}},
		{SKU: "TEA-GYK-050", Name: "Gyokuro", Category: "tea", Qty: 1, Unit: 2800, Gross: 2800, Net: 2800},
	}, Net: 8182}
	product := benchProduct{"EQP-SCL", "Brew scale", "equipment", 2990}
	var seq uint64
	CaptureTo(func(*eventlog.Event) uint64 { seq++; return seq })
	defer CaptureTo(nil)
	watchBenchSentinels(b)

	b.Run("context", func(b *testing.B) {
		reportCPU(b)
		s := current()
		ctx, cancel := benchCtx()
		defer cancel()
		for i := 0; i < b.N; i++ {
			s.enc.Buf = s.enc.Buf[:0]
			Encode(s, ctx)
		}
	})
	b.Run("receiver", func(b *testing.B) {
		reportCPU(b)
		s := current()
		for i := 0; i < b.N; i++ {
			s.enc.Buf = s.enc.Buf[:0]
			Recv(s, pricer)
		}
	})
	b.Run("struct", func(b *testing.B) {
		reportCPU(b)
		s := current()
		for i := 0; i < b.N; i++ {
			s.enc.Buf = s.enc.Buf[:0]
			Encode(s, quote)
		}
	})
	b.Run("writein", func(b *testing.B) {
		reportCPU(b)
		s := current()
		for i := 0; i < b.N; i++ {
			checkWrites(s)
			refreshVars(s)
		}
	})
	b.Run("request", func(b *testing.B) {
		reportCPU(b)
		for i := 0; i < b.N; i++ {
			ctx, cancel := benchCtx() // a new context per request, as net/http
			s := In(inSite)
			Recv(s, pricer)
			Encode(s, ctx)
			Encode(s, req)
			f := s.Call()
			for range 2 {
				o := Out(outSite)
				Recv(o, store)
				Encode(o, ctx)
				o.String("EQP-SCL")
				g := o.Call()
				Encode(o, product)
				o.Error(nil)
				o.Return(g)
			}
			Encode(s, quote)
			s.Error(nil)
			s.Return(f)
			cancel()
		}
	})
	// order: a shop order's three top-level incalls (Available, Quote,
	// Compute), one after the other on the request's goroutine, each with
	// its receiver, the request's context and an outcall to the store: the
	// same objects cross in every incall of the request, and the receivers
	// and the store in every request of the connection.
	b.Run("order", func(b *testing.B) {
		reportCPU(b)
		lookups := tableLookups()
		defer func() {
			b.ReportMetric(float64(tableLookups()-lookups)/float64(b.N), "table-lookups/op")
		}()
		for i := 0; i < b.N; i++ {
			ctx, cancel := benchCtx()
			for range 3 {
				s := In(inSite)
				Recv(s, pricer)
				Encode(s, ctx)
				f := s.Call()
				o := Out(outSite)
				Recv(o, store)
				Encode(o, ctx)
				o.String("EQP-SCL")
				g := o.Call()
				Encode(o, product)
				o.Error(nil)
				o.Return(g)
				Encode(s, quote)
				s.Error(nil)
				s.Return(f)
			}
			cancel()
		}
	})
}

// reportCPU reports allocations and the process's CPU time per iteration
// (cpu-ns/op): on a shared machine it measures the work better than wall
// time.
func reportCPU(b *testing.B) {
	b.ReportAllocs()
	start := cputime.Process()
	b.ResetTimer()
	b.Cleanup(func() {
		if b.N > 0 {
			b.ReportMetric(float64(cputime.Process()-start)/float64(b.N), "cpu-ns/op")
		}
	})
}
