package probe

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

// BenchmarkSampling is the probes' cost of one shop request (three
// top-level incalls, each with its receiver, the request's context and an
// outcall to the store; BenchmarkShopIncall's order) as the generated
// wrappers pay it: with capture off, outside a sampled window
// (CAPTURE_SAMPLE), at a rate of 0.05 (windows included), and with
// everything captured into a log file. What sampling saves a fleet is the
// difference between the last two.
func BenchmarkSampling(b *testing.B) {
	inSite := &Site{Name: "(*example.com/shop/pricing.Pricer).Quote"}
	outSite := &Site{Name: "(example.com/shop/pricing.Catalog).Product"}
	pricer := &benchPricer{}
	store := &benchStore{}
	quote := benchQuote{Variant: "A", Lines: []benchLine{
		{SKU: "EQP-SCL", Name: "Brew scale", Category: "equipment", Qty: 2, Unit: 2990, Gross: 5980, Discount: 598, Net: 5382, Rules: []string{"volume"}},
		{SKU: "TEA-GYK-050", Name: "Gyokuro", Category: "tea", Qty: 1, Unit: 2800, Gross: 2800, Net: 2800},
	}, Net: 8182}
	product := benchProduct{"EQP-SCL", "Brew scale", "equipment", 2990}
	var sink int64
	// The original functions: what the program does either way.
	catalog := func(ctx context.Context, sku string) (benchProduct, error) { return product, nil }
	priceQuote := func(ctx context.Context) (benchQuote, error) {
		p, err := catalog(ctx, "EQP-SCL")
		q := quote
		q.Net += p.Cents
		return q, err
	}
	// outcall and incall are the shapes of the generated helper and
	// wrapper (tool/transform): the original call when the probe says
	// nothing is recorded.
	outcall := func(ctx context.Context) (benchProduct, error) {
		o := Out(outSite)
		if o == nil {
			return catalog(ctx, "EQP-SCL")
		}
		Recv(o, store)
		Encode(o, ctx)
		o.String("EQP-SCL")
		g := o.Call()
		var p benchProduct
		var err error
		o.Run(g, func() { p, err = catalog(ctx, "EQP-SCL") })
		Encode(o, p)
		o.Error(err)
		o.Return(g)
		return p, err
	}
	priceQuoteProbed := func(ctx context.Context) (benchQuote, error) {
		p, err := outcall(ctx)
		q := quote
		q.Net += p.Cents
		return q, err
	}
	incall := func(ctx context.Context) (benchQuote, error) {
		if !On() {
			return priceQuote(ctx)
		}
		s := In(inSite)
		if s == nil {
			return priceQuote(ctx)
		}
		Recv(s, pricer)
		Encode(s, ctx)
		f := s.Call()
		var q benchQuote
		var err error
		s.Run(f, func() { q, err = priceQuoteProbed(ctx) })
		Encode(s, q)
		s.Error(err)
		s.Return(f)
		return q, err
	}
	order := func(b *testing.B) {
		reportCPU(b)
		for i := 0; i < b.N; i++ {
			ctx, cancel := benchCtx()
			for range 3 {
				q, _ := incall(ctx)
				sink += q.Net
			}
			cancel()
		}
	}

	b.Run("off", func(b *testing.B) {
		order(b)
	})
	b.Run("outside-window", func(b *testing.B) {
		withSampling(b, map[string]string{EnvSample: "1e-12", EnvSampleSeed: "1"})
		watchBenchSentinels(b)
		order(b)
		b.StopTimer()
		if st := Sampling(); st.Windows != 0 || st.Incalls < uint64(3*b.N-1) {
			b.Fatalf("sampling %+v: want no window", st)
		}
	})
	// rate-0.05: the default window, so a window (its checkpoint, its file
	// created and closed) every 20,000 quiescent points or so, each
	// recording 1,000: the cost a fleet pays on average.
	b.Run("rate-0.05", func(b *testing.B) {
		withSampling(b, map[string]string{EnvSample: "0.05", EnvSampleSeed: "1"})
		watchBenchSentinels(b)
		order(b)
		b.StopTimer()
		st := Sampling()
		b.ReportMetric(float64(st.Windows), "windows")
		b.ReportMetric(float64(st.Sampled)/float64(max(st.Points, 1)), "sampled-fraction")
	})
	b.Run("full", func(b *testing.B) {
		withCheckpointsB(b)
		CaptureTo(nil)
		ckptOn = false // checkpoints off, as in a plain capture
		opts := eventlog.Options{Policy: eventlog.Block, Compression: eventlog.Zstd}
		if _, err := CaptureWith(filepath.Join(b.TempDir(), "full.arrow"), opts); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(Close)
		watchBenchSentinels(b)
		order(b)
		b.StopTimer()
		Close()
	})
	_ = sink
}
