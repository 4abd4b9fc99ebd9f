package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rules-capture/rules_capture/examples/shop/api"
	"github.com/rules-capture/rules_capture/examples/shop/app"
	"github.com/rules-capture/rules_capture/examples/shop/storage"
)

func newShop(t *testing.T) *httptest.Server {
	t.Helper()
	cfg := app.DefaultConfig(filepath.Join(t.TempDir(), "shop.db"))
	a, err := app.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a.Handler)
	t.Cleanup(func() {
		srv.Close()
		a.Close()
	})
	return srv
}

func call(t *testing.T, srv *httptest.Server, method, path, body string) (int, []byte, http.Header) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b, resp.Header
}

func TestErrorStatuses(t *testing.T) {
	srv := newShop(t)
	big := `{"region":"DE","items":[` + strings.Repeat(`{"sku":"MER-MUG","quantity":1},`, 3000) + `{"sku":"MER-MUG","quantity":1}]}`
	tests := []struct {
		name, method, path, body string
		status                   int
		code                     string
		message                  string
	}{
		{"not JSON", "POST", "/quote", "region=DE", 400, "bad_request", "invalid JSON"},
		{"unknown field", "POST", "/quote", `{"region":"DE","items":[],"discount":100}`, 400, "bad_request", `unknown field "discount"`},
		{"two values", "POST", "/quote", `{"region":"DE"} {}`, 400, "bad_request", "more than one value"},
		{"body too large", "POST", "/quote", big, 400, "bad_request", "larger than"},
		{"empty cart", "POST", "/quote", `{"region":"DE","items":[]}`, 400, "empty_cart", ""},
		{"zero quantity", "POST", "/quote", `{"region":"DE","items":[{"sku":"MER-MUG","quantity":0}]}`, 400, "invalid_quantity", ""},
		{"unknown region", "POST", "/quote", `{"region":"XX","items":[{"sku":"MER-MUG","quantity":1}]}`, 400, "unknown_region", `"XX"`},
		{"invalid variant", "POST", "/quote", `{"region":"DE","items":[{"sku":"MER-MUG","quantity":1}],"variant":"C"}`, 400, "invalid_variant", ""},
		{"unknown product", "POST", "/quote", `{"region":"DE","items":[{"sku":"NOPE","quantity":1}]}`, 422, "unknown_product", `"NOPE"`},
		{"unknown coupon", "POST", "/quote", `{"region":"DE","items":[{"sku":"MER-MUG","quantity":1}],"coupon":"bogus"}`, 422, "unknown_coupon", `"BOGUS"`},
		{"expired coupon", "POST", "/quote", `{"region":"DE","items":[{"sku":"MER-MUG","quantity":1}],"coupon":"SUMMER26"}`, 422, "coupon_expired", "ended 2026-09-01"},
		{"coupon minimum", "POST", "/quote", `{"region":"DE","items":[{"sku":"MER-TOTE","quantity":1}],"coupon":"WELCOME10"}`, 422, "coupon_not_applicable", ""},
		{"order without customer", "POST", "/orders", `{"region":"DE","items":[{"sku":"MER-MUG","quantity":1}]}`, 400, "bad_request", "customer is required"},
		{"out of stock", "POST", "/orders", `{"customer":"c","region":"DE","items":[{"sku":"EQP-RST-LTD","quantity":4}]}`, 409, "out_of_stock", "4 requested, 3 available"},
		{"unknown order", "GET", "/orders/ord-404", "", 404, "not_found", ""},
		{"cancel unknown order", "POST", "/orders/ord-404/cancel", "", 404, "not_found", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, body, _ := call(t, srv, tc.method, tc.path, tc.body)
			var e api.ErrorResponse
			if err := json.Unmarshal(body, &e); err != nil {
				t.Fatalf("body %q is not an error response: %v", body, err)
			}
			if status != tc.status || e.Code != tc.code || !strings.Contains(e.Error, tc.message) {
				t.Fatalf("%s %s = %d %+v, want %d %s mentioning %q", tc.method, tc.path, status, e, tc.status, tc.code, tc.message)
			}
		})
	}
	if status, _, _ := call(t, srv, "GET", "/quote", ""); status != http.StatusMethodNotAllowed {
		t.Errorf("GET /quote = %d, want 405", status)
	}
}

func TestQuoteTotals(t *testing.T) {
	srv := newShop(t)
	for _, tc := range []struct {
		region    string
		inclusive bool
	}{{"DE", true}, {"US-CA", false}} {
		status, body, _ := call(t, srv, "POST", "/quote",
			fmt.Sprintf(`{"region":%q,"items":[{"sku":"MER-MUG","quantity":2},{"sku":"TEA-SEN-100","quantity":1}],"variant":"A"}`, tc.region))
		if status != 200 {
			t.Fatalf("quote %s: %d %s", tc.region, status, body)
		}
		var q api.QuoteResponse
		if err := json.Unmarshal(body, &q); err != nil {
			t.Fatal(err)
		}
		want := q.NetCents
		if !tc.inclusive {
			want += q.Tax.TaxCents
		}
		if q.Tax.Inclusive != tc.inclusive || q.TotalCents != want || q.Tax.TaxCents <= 0 || len(q.Lines) != 2 {
			t.Errorf("%s quote: total %d, net %d, tax %+v; want total %d", tc.region, q.TotalCents, q.NetCents, q.Tax, want)
		}
	}
}

func TestOrderLifecycle(t *testing.T) {
	srv := newShop(t)
	status, body, hdr := call(t, srv, "POST", "/orders", `{"customer":" c1 ","region":"FR","items":[{"sku":"COF-KEN-250","quantity":3}],"variant":"B"}`)
	if status != http.StatusCreated {
		t.Fatalf("POST /orders = %d %s", status, body)
	}
	var o storage.Order
	if err := json.Unmarshal(body, &o); err != nil {
		t.Fatal(err)
	}
	if o.ID == "" || o.Status != storage.StatusPlaced || o.Customer != "c1" || o.Variant != "B" || hdr.Get("Location") != "/orders/"+o.ID {
		t.Fatalf("created order %+v, Location %q", o, hdr.Get("Location"))
	}
	status, body, _ = call(t, srv, "GET", "/orders/"+o.ID, "")
	var got storage.Order
	if status != 200 || json.Unmarshal(body, &got) != nil || got.ID != o.ID || got.TotalCents != o.TotalCents {
		t.Fatalf("GET order = %d %s", status, body)
	}

	// Concurrent cancels of one order: exactly one wins.
	var wg sync.WaitGroup
	statuses := make([]int, 10)
	for i := range statuses {
		wg.Go(func() { statuses[i], _, _ = call(t, srv, "POST", "/orders/"+o.ID+"/cancel", "") })
	}
	wg.Wait()
	won := 0
	for _, s := range statuses {
		switch s {
		case 200:
			won++
		case 409:
		default:
			t.Errorf("cancel answered %d", s)
		}
	}
	if won != 1 {
		t.Fatalf("%d of 10 concurrent cancels succeeded, want exactly 1 (statuses %v)", won, statuses)
	}
	status, body, _ = call(t, srv, "GET", "/orders/"+o.ID, "")
	if status != 200 || json.Unmarshal(body, &got) != nil || got.Status != storage.StatusCancelled || got.CancelledAt.IsZero() {
		t.Fatalf("order after cancel: %d %s", status, body)
	}

	// The cancelled units are sellable again.
	status, body, _ = call(t, srv, "GET", "/products", "")
	var products []api.ProductView
	if status != 200 || json.Unmarshal(body, &products) != nil {
		t.Fatalf("GET /products = %d %s", status, body)
	}
	for _, p := range products {
		if p.SKU == "COF-KEN-250" && p.Available != 1_000_000-10 {
			t.Fatalf("COF-KEN-250 available %d after cancel, want %d", p.Available, 1_000_000-10)
		}
	}
}
