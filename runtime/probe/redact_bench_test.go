package probe

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// The shop's request with one more string field, passed on to the
// store's outcall: named Tracking (not secret) or Token (a default redact
// name), so that the two benchmarks differ only in redaction.

type benchPlainRequest struct {
	Items                   []benchItem
	Coupon, Region, Variant string
	Tracking                string
}

type benchSecretRequest struct {
	Items                   []benchItem
	Coupon, Region, Variant string
	Token                   string
}

var _ = func() struct{} {
	value.RegisterOwnType(reflect.TypeFor[benchPlainRequest]())
	value.RegisterOwnType(reflect.TypeFor[benchSecretRequest]())
	return struct{}{}
}()

// BenchmarkShopRedaction: BenchmarkShopIncall's request with a token
// field. off: the field is not secret (no secret known, the cost of
// redaction switched off); same: the field is secret and every request
// carries the same token (a lookup in the secret table per string of the
// token's length); distinct: a new token per request (an HMAC per
// request). Compare cpu-ns/op of off and the others with -count 5.
func BenchmarkShopRedaction(b *testing.B) {
	inSite := &Site{Name: "(*example.com/shop/pricing.Pricer).Quote"}
	outSite := &Site{Name: "(example.com/shop/pricing.Catalog).Product"}
	pricer := &benchPricer{}
	store := &benchStore{}
	items := []benchItem{{"EQP-SCL", 2}, {"TEA-GYK-050", 1}}
	quote := benchQuote{Variant: "A", Lines: []benchLine{
		{SKU: "EQP-SCL", Name: "Brew scale", Category: "equipment", Qty: 2, Unit: 2990, Gross: 5980, Discount: 598, Net: 5382, Rules: []string{"volume"}},
		{SKU: "TEA-GYK-050", Name: "Gyokuro", Category: "tea", Qty: 1, Unit: 2800, Gross: 2800, Net: 2800},
	}, Net: 8182}
	product := benchProduct{"EQP-SCL", "Brew scale", "equipment", 2990}
	var seq uint64
	CaptureTo(func(*eventlog.Event) uint64 { seq++; return seq })
	defer CaptureTo(nil)
	watchBenchSentinels(b)

	request := func(s *Stream, encodeReq func(s *Stream), tok string) {
		ctx, cancel := benchCtx()
		Recv(s, pricer)
		Encode(s, ctx)
		encodeReq(s)
		f := s.Call()
		for range 2 {
			o := Out(outSite)
			Recv(o, store)
			Encode(o, ctx)
			o.String("EQP-SCL")
			o.String(tok) // the token passed on, under a parameter of any name
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
	const token = "tok-7f3a9c2e41b8d6f0"
	b.Run("off", func(b *testing.B) {
		value.ResetRedaction()
		reportCPU(b)
		req := benchPlainRequest{Items: items, Region: "US-CA", Tracking: token}
		for i := 0; i < b.N; i++ {
			request(In(inSite), func(s *Stream) { Encode(s, req) }, req.Tracking)
		}
	})
	b.Run("same", func(b *testing.B) {
		value.ResetRedaction()
		reportCPU(b)
		req := benchSecretRequest{Items: items, Region: "US-CA", Token: token}
		for i := 0; i < b.N; i++ {
			request(In(inSite), func(s *Stream) { Encode(s, req) }, req.Token)
		}
	})
	b.Run("distinct", func(b *testing.B) {
		value.ResetRedaction()
		tokens := make([]string, 4096)
		for i := range tokens {
			tokens[i] = token[:len(token)-6] + strconv.Itoa(100000+i)
		}
		reportCPU(b)
		req := benchSecretRequest{Items: items, Region: "US-CA"}
		for i := 0; i < b.N; i++ {
			req.Token = tokens[i%len(tokens)] + strconv.Itoa(i/len(tokens))
			request(In(inSite), func(s *Stream) { Encode(s, req) }, req.Token)
		}
	})
	value.ResetRedaction()
}
