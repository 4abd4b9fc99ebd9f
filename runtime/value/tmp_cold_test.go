package value

import (
	"slices"
	"testing"
	"time"
)

func coldOne(b *testing.B, f func(e *Encoder)) {
	e := &Encoder{Objects: &benchObjects{}}
	f(e)
	var ds []time.Duration
	for b.Loop() {
		e.Buf = e.Buf[:0]
		evictCaches()
		start := time.Now()
		f(e)
		ds = append(ds, time.Since(start))
	}
	slices.Sort(ds)
	b.ReportMetric(float64(ds[len(ds)/2].Nanoseconds()), "encode-ns/op")
}

func BenchmarkTmpCold(b *testing.B) {
	v, cancel := newShopValues()
	defer cancel()
	b.Run("nothing", func(b *testing.B) { coldOne(b, func(e *Encoder) {}) })
	b.Run("appendint", func(b *testing.B) { coldOne(b, func(e *Encoder) { e.Buf = AppendInt(e.Buf, 5) }) })
	b.Run("int", func(b *testing.B) { coldOne(b, func(e *Encoder) { Encode(e, 5) }) })
	b.Run("string", func(b *testing.B) { coldOne(b, func(e *Encoder) { Encode(e, "FR") }) })
	b.Run("recv", func(b *testing.B) { coldOne(b, func(e *Encoder) { Encode(e, benchPricers[0]) }) })
	b.Run("ctx", func(b *testing.B) { coldOne(b, func(e *Encoder) { Encode(e, v.ctx) }) })
	b.Run("catalog", func(b *testing.B) { coldOne(b, func(e *Encoder) { Encode(e, v.catalog) }) })
	b.Run("time", func(b *testing.B) { coldOne(b, func(e *Encoder) { Encode(e, v.now) }) })
	b.Run("product", func(b *testing.B) { coldOne(b, func(e *Encoder) { Encode(e, v.products[0]) }) })
	b.Run("quote", func(b *testing.B) { coldOne(b, func(e *Encoder) { Encode(e, v.quote) }) })
	b.Run("skus", func(b *testing.B) { coldOne(b, func(e *Encoder) { Encode(e, v.skus) }) })
	b.Run("nilerr", func(b *testing.B) { coldOne(b, func(e *Encoder) { Encode(e, error(nil)) }) })
}
