package loadgen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Config describes a run. Exactly one of Requests and Duration is set.
type Config struct {
	BaseURL string // e.g. http://127.0.0.1:8080
	Seed    uint64
	// Requests is the number of measured requests.
	Requests int
	// Duration is how long to keep starting measured requests.
	Duration time.Duration
	// Warmup requests run first, through the same workload, and are not
	// measured: they fill connection pools, caches and the database pages.
	Warmup      int
	Concurrency int
	// Rate is the target request rate per second for an open-loop run:
	// request i is due at start + i/Rate whether or not earlier ones have
	// finished, and its latency counts from when it was due, so a server
	// that falls behind is charged for the queueing it causes. Zero runs a
	// closed loop: each worker sends its next request when the previous
	// one is answered.
	Rate    float64
	Timeout time.Duration // per request; zero means 10s
	Mix     Mix           // zero value means DefaultMix
	// Client overrides the HTTP client (tests); nil builds one with a
	// keep-alive pool sized to Concurrency and no proxy.
	Client *http.Client
}

func (c *Config) check() error {
	if c.BaseURL == "" {
		return errors.New("loadgen: no base URL; pass the shop's address, e.g. -url http://127.0.0.1:8080")
	}
	u, err := url.Parse(c.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("loadgen: base URL %q: want http://host:port", c.BaseURL)
	}
	c.BaseURL = strings.TrimSuffix(c.BaseURL, "/")
	switch {
	case c.Requests < 0 || c.Duration < 0 || c.Warmup < 0:
		return errors.New("loadgen: requests, duration and warm-up must not be negative")
	case c.Requests > 0 && c.Duration > 0:
		return errors.New("loadgen: set either a request count (-n) or a duration (-duration), not both")
	case c.Requests == 0 && c.Duration == 0:
		return errors.New("loadgen: set a request count (-n) or a duration (-duration)")
	case c.Concurrency < 1:
		return fmt.Errorf("loadgen: concurrency %d, want at least 1", c.Concurrency)
	case c.Rate < 0:
		return fmt.Errorf("loadgen: rate %g, want 0 (closed loop) or a positive rate", c.Rate)
	}
	if c.Timeout <= 0 {
		c.Timeout = 10 * time.Second
	}
	if c.Mix == (Mix{}) {
		c.Mix = DefaultMix
	}
	return c.Mix.validate()
}

func newClient(cfg Config) *http.Client {
	return &http.Client{
		Timeout: cfg.Timeout,
		Transport: &http.Transport{
			Proxy:               nil, // measure the shop, never an HTTP_PROXY from the environment
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			MaxIdleConns:        2 * cfg.Concurrency,
			MaxIdleConnsPerHost: 2 * cfg.Concurrency,
			IdleConnTimeout:     90 * time.Second,
			DisableCompression:  true,
		},
	}
}

// result is one completed request. status 0 means no HTTP response.
type result struct {
	op      Op
	status  int
	latency time.Duration // from when the request was due
	service time.Duration // from when it was sent
	failure string        // for server and transport errors
}

type job struct {
	step Step
	due  time.Time // zero in a closed loop: due when sent
}

// orderPool remembers the orders created during the run, for gets and
// cancels. Each order is cancelled at most once.
type orderPool struct {
	mu   sync.Mutex
	all  []string
	open []string
}

func (p *orderPool) add(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.all = append(p.all, id)
	p.open = append(p.open, id)
}

func (p *orderPool) any(pick uint64) (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.all) == 0 {
		return "", false
	}
	return p.all[pick%uint64(len(p.all))], true
}

func (p *orderPool) takeOpen(pick uint64) (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.open) == 0 {
		return "", false
	}
	i := pick % uint64(len(p.open))
	id := p.open[i]
	p.open[i] = p.open[len(p.open)-1]
	p.open = p.open[:len(p.open)-1]
	return id, true
}

type runner struct {
	cfg    Config
	client *http.Client
	orders orderPool
}

// Run discovers the catalogue, warms up, runs the measured phase and
// summarises it. It returns an error only if the run could not start; a
// run whose requests fail still returns a summary that counts them. If ctx
// is cancelled, Run stops early and marks the summary interrupted.
func Run(ctx context.Context, cfg Config) (*Summary, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	r := &runner{cfg: cfg, client: cfg.Client}
	if r.client == nil {
		r.client = newClient(cfg)
		defer r.client.CloseIdleConnections()
	}
	skus, err := r.fetchSKUs(ctx)
	if err != nil {
		return nil, err
	}
	wl, err := NewWorkload(cfg.Seed, skus, cfg.Mix)
	if err != nil {
		return nil, err
	}
	if cfg.Warmup > 0 {
		r.phase(ctx, wl, cfg.Warmup, 0)
	}
	results, elapsed := r.phase(ctx, wl, cfg.Requests, cfg.Duration)
	s := summarize(cfg, results, elapsed)
	s.Interrupted = ctx.Err() != nil
	return s, nil
}

func (r *runner) fetchSKUs(ctx context.Context) ([]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.cfg.BaseURL+"/products", nil)
	if err != nil {
		return nil, fmt.Errorf("loadgen: %w", err)
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("loadgen: cannot reach the shop at %s (is it running?): %w", r.cfg.BaseURL, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("loadgen: GET %s/products: %s", r.cfg.BaseURL, resp.Status)
	}
	var products []struct {
		SKU string `json:"sku"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&products); err != nil {
		return nil, fmt.Errorf("loadgen: GET %s/products: not a product list: %w", r.cfg.BaseURL, err)
	}
	skus := make([]string, 0, len(products))
	for _, p := range products {
		skus = append(skus, p.SKU)
	}
	return skus, nil
}

// phase runs n requests (or, with n == 0, requests started within d) on
// Concurrency workers and returns what completed and the wall time from
// the first dispatch to the last completion.
func (r *runner) phase(ctx context.Context, wl *Workload, n int, d time.Duration) ([]result, time.Duration) {
	conc := r.cfg.Concurrency
	jobs := make(chan job) // unbuffered: a job is handed over only to a free worker
	perWorker := make([][]result, conc)
	var wg sync.WaitGroup
	start := time.Now()
	for w := range conc {
		wg.Go(func() {
			for j := range jobs {
				res, ok := r.do(ctx, j)
				if ok {
					perWorker[w] = append(perWorker[w], res)
				}
			}
		})
	}

	var deadline time.Time
	if d > 0 {
		deadline = start.Add(d)
	}
	var timer *time.Timer
dispatch:
	for i := 0; n == 0 || i < n; i++ {
		var due time.Time
		if r.cfg.Rate > 0 {
			due = start.Add(time.Duration(float64(i) * float64(time.Second) / r.cfg.Rate))
			if wait := time.Until(due); wait > 0 {
				if timer == nil {
					timer = time.NewTimer(wait)
				} else {
					timer.Reset(wait)
				}
				select {
				case <-timer.C:
				case <-ctx.Done():
					break dispatch
				}
			}
		}
		if !deadline.IsZero() && !time.Now().Before(deadline) {
			break
		}
		step := wl.Next()
		select {
		case jobs <- job{step: step, due: due}:
		case <-ctx.Done():
			break dispatch
		}
	}
	close(jobs)
	wg.Wait()
	elapsed := time.Since(start)

	var all []result
	for _, rs := range perWorker {
		all = append(all, rs...)
	}
	return all, elapsed
}

// do sends one request. It reports ok=false for a request cut short by the
// run's own cancellation, which says nothing about the shop.
func (r *runner) do(ctx context.Context, j job) (result, bool) {
	op, method, path := j.step.Op, http.MethodGet, "/products"
	switch op {
	case OpQuote:
		method, path = http.MethodPost, "/quote"
	case OpOrder:
		method, path = http.MethodPost, "/orders"
	case OpGetOrder:
		if id, ok := r.orders.any(j.step.Pick); ok {
			path = "/orders/" + id
		} else {
			op = OpProducts // no order yet: browse instead
		}
	case OpCancel:
		if id, ok := r.orders.takeOpen(j.step.Pick); ok {
			method, path = http.MethodPost, "/orders/"+id+"/cancel"
		} else {
			op = OpProducts
		}
	}
	var body io.Reader
	if op == OpQuote || op == OpOrder {
		body = bytes.NewReader(j.step.Body())
	}
	req, err := http.NewRequestWithContext(ctx, method, r.cfg.BaseURL+path, body)
	if err != nil {
		return result{op: op, failure: err.Error()}, true
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}

	sent := time.Now()
	resp, err := r.client.Do(req)
	var payload []byte
	if err == nil {
		payload, err = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	end := time.Now()

	if ctx.Err() != nil {
		return result{}, false
	}
	res := result{op: op, service: end.Sub(sent), latency: end.Sub(sent)}
	if !j.due.IsZero() {
		res.latency = end.Sub(j.due)
	}
	if err != nil {
		res.failure = fmt.Sprintf("%s %s: %v", method, path, err)
		return res, true
	}
	res.status = resp.StatusCode
	if res.status >= 500 {
		res.failure = fmt.Sprintf("%s %s: %s: %s", method, path, resp.Status, bytes.TrimSpace(payload))
	}
	if op == OpOrder && res.status == http.StatusCreated {
		var o struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(payload, &o) == nil && o.ID != "" {
			r.orders.add(o.ID)
		}
	}
	return res, true
}
