// Package api is the shop's HTTP JSON interface. It decodes requests, calls
// the business packages (pricing, tax, inventory) and the database, and maps
// their sentinel errors to HTTP statuses.
//
// It is outside the observed set: in a capture build, its calls into the
// business packages are the incalls that a replay drives.
//
// Endpoints:
//
//	GET  /healthz                 200 "ok"
//	GET  /products                catalogue with sellable stock
//	GET  /regions                 regions the shop ships to
//	POST /quote                   price a cart (no side effects)
//	POST /orders                  price, reserve stock, store the order (201)
//	GET  /orders/{id}             a stored order
//	POST /orders/{id}/cancel      cancel a placed order and restock it
//
// Errors are {"error": "...", "code": "..."} with a 4xx status for the
// client's mistakes and business refusals, 5xx for the server's failures.
package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/rules-capture/rules_capture/examples/shop/inventory"
	"github.com/rules-capture/rules_capture/examples/shop/pricing"
	"github.com/rules-capture/rules_capture/examples/shop/storage"
	"github.com/rules-capture/rules_capture/examples/shop/tax"
)

// MaxBodyBytes bounds a request body.
const MaxBodyBytes = 64 << 10

// Store is what the handlers need from the database directly.
type Store interface {
	Products(ctx context.Context) ([]storage.Product, error)
	NextOrderID(ctx context.Context) (string, error)
	CreateOrder(ctx context.Context, o storage.Order) error
	Order(ctx context.Context, id string) (storage.Order, error)
	CancelOrder(ctx context.Context, id string, at time.Time) (storage.Order, error)
}

// Server holds the handlers' dependencies.
type Server struct {
	store  Store
	pricer *pricing.Pricer
	taxes  *tax.Calculator
	stock  *inventory.Service
	log    *slog.Logger
}

// New returns a Server; log may be nil to discard logs.
func New(store Store, pricer *pricing.Pricer, taxes *tax.Calculator, stock *inventory.Service, log *slog.Logger) (*Server, error) {
	if store == nil || pricer == nil || taxes == nil || stock == nil {
		return nil, errors.New("api: New needs a store, a pricer, a tax calculator and an inventory service")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Server{store: store, pricer: pricer, taxes: taxes, stock: stock, log: log}, nil
}

// Handler routes the endpoints.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "ok\n")
	})
	mux.HandleFunc("GET /products", s.handleProducts)
	mux.HandleFunc("GET /regions", s.handleRegions)
	mux.HandleFunc("POST /quote", s.handleQuote)
	mux.HandleFunc("POST /orders", s.handleCreateOrder)
	mux.HandleFunc("GET /orders/{id}", s.handleGetOrder)
	mux.HandleFunc("POST /orders/{id}/cancel", s.handleCancelOrder)
	return s.recoverPanics(mux)
}

// CartRequest is the body of POST /quote and POST /orders.
type CartRequest struct {
	Customer string         `json:"customer,omitempty"` // required for orders
	Region   string         `json:"region"`
	Items    []pricing.Item `json:"items"`
	Coupon   string         `json:"coupon,omitempty"`
	// Variant is the experiment variant from an earlier response; omit it
	// on a client's first request.
	Variant string `json:"variant,omitempty"`
}

// QuoteResponse is a priced cart with its tax.
type QuoteResponse struct {
	pricing.Quote
	Tax        tax.Assessment `json:"tax"`
	TotalCents int64          `json:"total_cents"`
}

// ProductView is a catalogue entry with its sellable stock.
type ProductView struct {
	storage.Product
	Available int `json:"available"`
}

// ErrorResponse is the body of every error.
type ErrorResponse struct {
	Error string `json:"error"`
	Code  string `json:"code"`
}

func (s *Server) handleProducts(w http.ResponseWriter, r *http.Request) {
	products, err := s.store.Products(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	skus := make([]string, len(products))
	for i, p := range products {
		skus[i] = p.SKU
	}
	avail, err := s.stock.Available(r.Context(), skus)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out := make([]ProductView, len(products))
	for i, p := range products {
		out[i] = ProductView{Product: p, Available: avail[i].Available}
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handleRegions(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.taxes.Regions(r.Context()))
}

func (s *Server) handleQuote(w http.ResponseWriter, r *http.Request) {
	var req CartRequest
	if err := decode(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	q, err := s.price(r.Context(), req)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, q)
}

// price quotes the cart and computes its tax.
func (s *Server) price(ctx context.Context, req CartRequest) (QuoteResponse, error) {
	q, err := s.pricer.Quote(ctx, pricing.Request{Items: req.Items, Coupon: req.Coupon, Variant: req.Variant})
	if err != nil {
		return QuoteResponse{}, err
	}
	lines := make([]tax.Line, len(q.Lines))
	for i, l := range q.Lines {
		lines[i] = tax.Line{Category: l.Category, AmountCents: l.NetCents}
	}
	a, err := s.taxes.Compute(ctx, req.Region, lines)
	if err != nil {
		return QuoteResponse{}, err
	}
	return QuoteResponse{Quote: q, Tax: a, TotalCents: a.TotalCents}, nil
}

func (s *Server) handleCreateOrder(w http.ResponseWriter, r *http.Request) {
	var req CartRequest
	if err := decode(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	o, err := s.placeOrder(r.Context(), req)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Location", "/orders/"+o.ID)
	writeJSON(w, http.StatusCreated, o)
}

// placeOrder prices the cart, reserves its stock and stores the order. If
// storing fails, the reservation is released so no stock leaks.
func (s *Server) placeOrder(ctx context.Context, req CartRequest) (storage.Order, error) {
	req.Customer = strings.TrimSpace(req.Customer)
	if req.Customer == "" {
		return storage.Order{}, badRequest("customer is required for an order")
	}
	q, err := s.price(ctx, req)
	if err != nil {
		return storage.Order{}, err
	}
	id, err := s.store.NextOrderID(ctx)
	if err != nil {
		return storage.Order{}, err
	}
	items := make([]inventory.Item, len(q.Lines))
	lines := make([]storage.OrderLine, len(q.Lines))
	for i, l := range q.Lines {
		items[i] = inventory.Item{SKU: l.SKU, Quantity: l.Quantity}
		lines[i] = storage.OrderLine{SKU: l.SKU, Name: l.Name, Quantity: l.Quantity,
			UnitCents: l.UnitCents, DiscountCents: l.DiscountCents, NetCents: l.NetCents}
	}
	res, err := s.stock.Reserve(ctx, id, items)
	if err != nil {
		return storage.Order{}, err
	}
	if len(res.LowStock) > 0 {
		s.log.Info("low stock", "order", id, "skus", res.LowStock)
	}
	o := storage.Order{
		ID: id, Customer: req.Customer, Region: q.Tax.Region, Status: storage.StatusPlaced,
		Variant: q.Variant, Coupon: q.Coupon, Lines: lines,
		SubtotalCents: q.SubtotalCents, DiscountCents: q.DiscountCents,
		TaxCents: q.Tax.TaxCents, TotalCents: q.TotalCents, CreatedAt: q.PricedAt,
	}
	if err := s.store.CreateOrder(ctx, o); err != nil {
		// The client may have gone away; the release must still happen.
		if _, rerr := s.stock.Release(context.WithoutCancel(ctx), id); rerr != nil {
			s.log.Error("releasing stock of an unstored order", "order", id, "err", rerr)
		}
		return storage.Order{}, err
	}
	return o, nil
}

func (s *Server) handleGetOrder(w http.ResponseWriter, r *http.Request) {
	o, err := s.store.Order(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, o)
}

func (s *Server) handleCancelOrder(w http.ResponseWriter, r *http.Request) {
	ctx, id := r.Context(), r.PathValue("id")
	o, err := s.store.Order(ctx, id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if o.Status != storage.StatusPlaced {
		s.fail(w, r, fmt.Errorf("%w: order %s is %s", storage.ErrOrderState, id, o.Status))
		return
	}
	// Releasing first makes concurrent cancels safe: only one of them gets
	// the reservation back, the other answers 409.
	if _, err := s.stock.Release(ctx, id); err != nil {
		s.fail(w, r, err)
		return
	}
	o, err = s.store.CancelOrder(context.WithoutCancel(ctx), id, time.Now())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, o)
}

// errBadRequest marks errors in the request itself.
var errBadRequest = errors.New("bad request")

func badRequest(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errBadRequest, fmt.Sprintf(format, args...))
}

// decode reads a JSON body strictly: known fields only, one value, bounded
// size. The Content-Type is not checked (curl -d sends a form type); the
// body must be JSON either way.
func decode(w http.ResponseWriter, r *http.Request, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return badRequest("body larger than %d bytes", MaxBodyBytes)
		}
		return badRequest("invalid JSON body: %v", err)
	}
	if dec.More() {
		return badRequest("invalid JSON body: more than one value")
	}
	return nil
}

// classify maps an error to an HTTP status and a stable code.
func classify(err error) (int, string) {
	switch {
	case errors.Is(err, errBadRequest):
		return http.StatusBadRequest, "bad_request"
	case errors.Is(err, pricing.ErrEmptyCart):
		return http.StatusBadRequest, "empty_cart"
	case errors.Is(err, pricing.ErrInvalidQuantity), errors.Is(err, inventory.ErrInvalidQuantity):
		return http.StatusBadRequest, "invalid_quantity"
	case errors.Is(err, pricing.ErrInvalidVariant):
		return http.StatusBadRequest, "invalid_variant"
	case errors.Is(err, tax.ErrUnknownRegion):
		return http.StatusBadRequest, "unknown_region"
	case errors.Is(err, pricing.ErrUnknownProduct), errors.Is(err, inventory.ErrUnknownProduct):
		return http.StatusUnprocessableEntity, "unknown_product"
	case errors.Is(err, pricing.ErrUnknownCoupon):
		return http.StatusUnprocessableEntity, "unknown_coupon"
	case errors.Is(err, pricing.ErrCouponExpired):
		return http.StatusUnprocessableEntity, "coupon_expired"
	case errors.Is(err, pricing.ErrCouponNotApplicable):
		return http.StatusUnprocessableEntity, "coupon_not_applicable"
	case errors.Is(err, inventory.ErrOutOfStock):
		return http.StatusConflict, "out_of_stock"
	case errors.Is(err, storage.ErrOrderState), errors.Is(err, inventory.ErrReservationNotFound):
		return http.StatusConflict, "order_state"
	case errors.Is(err, storage.ErrNotFound):
		return http.StatusNotFound, "not_found"
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return http.StatusServiceUnavailable, "unavailable"
	}
	return http.StatusInternalServerError, "internal"
}

func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	status, code := classify(err)
	msg := err.Error()
	if status == http.StatusInternalServerError {
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		msg = "internal error"
	}
	writeJSON(w, status, ErrorResponse{Error: msg, Code: code})
}

// recoverPanics turns a handler panic into a 500 for that request instead
// of a dropped connection, and logs it.
func (s *Server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Error("handler panic", "method", r.Method, "path", r.URL.Path, "panic", v)
				writeJSON(w, http.StatusInternalServerError, ErrorResponse{Error: "internal error", Code: "internal"})
			}
		}()
		next.ServeHTTP(w, r)
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		body = []byte(`{"error":"internal error","code":"internal"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}
