package transform_test

import (
	"strings"
	"testing"
)

// TestLockTurnSites: acquisitions of locks observed code holds (a field,
// an embedded lock by value or pointer, a package variable, a local, a
// pointer that did not cross) take a lock turn, with their lines kept;
// unlocks and calls through sync.Locker do not.
func TestLockTurnSites(t *testing.T) {
	src := `package p

import "sync"

type Cache struct {
	mu sync.RWMutex
	n  int
}

type Embeds struct{ sync.Mutex }

type EmbedsPtr struct{ *sync.RWMutex }

var global sync.Mutex

func (c *Cache) Get() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.n
}

func (c *Cache) Try() bool {
	if !c.mu.TryLock() {
		return c.mu.TryRLock()
	}
	c.n++
	c.mu.Unlock()
	return true
}

func Run(e *Embeds, ep EmbedsPtr, p *sync.Mutex, l sync.Locker) {
	var local sync.Mutex
	e.Lock()
	ep.RLock()
	global.Lock()
	local.Lock()
	p.Lock()
	l.Lock()
}
`
	out, err := instrumentSource(t, "p/p.go", src)
	if err != nil {
		t.Fatal(err)
	}
	got := string(out.Files[0])
	for _, want := range []string{
		"_capture_rlock(&_capture_site_0, &c.mu)\n\tdefer c.mu.RUnlock()",
		"if !_capture_rw_try_lock(&_capture_site_1, &c.mu) {\n\t\treturn _capture_try_rlock(&_capture_site_2, &c.mu)",
		"c.mu.Unlock()",
		"_capture_lock(&_capture_site_3, &e.Mutex)",
		"_capture_rlock(&_capture_site_4, ep.RWMutex)", // embedded pointer: no &
		"_capture_lock(&_capture_site_5, &global)",
		"_capture_lock(&_capture_site_6, &local)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("instrumented source lacks %q:\n%s", want, got)
		}
	}
	gen := string(out.Gen)
	// p.Lock(): the outcall helper, a turn when the lock did not cross.
	if !strings.Contains(gen, "if s == nil || probe.Private(_r) {\n\t\t_capture_lock(&_capture_site_") {
		t.Errorf("the acquisition through *sync.Mutex takes no turn:\n%s", gen)
	}
	// l.Lock() through sync.Locker is an interface call: no turn.
	if strings.Count(gen, "Name: \"l.Lock\"") != 0 {
		t.Errorf("a sync.Locker call takes a turn:\n%s", gen)
	}
	// Lines are kept: the rewritten calls are on their original lines.
	if a, b := strings.Count(src, "\n"), strings.Count(got[strings.Index(got, "type Cache"):], "\n"); b > a {
		t.Errorf("the instrumented source has more lines (%d) than the original (%d)", b, a)
	}
}
