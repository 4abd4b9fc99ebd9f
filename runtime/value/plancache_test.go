package value

import (
	"bytes"
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // America/New_York without the system's zoneinfo
)

// TestZoneCacheBounds: an encoder answers the zones of later times from its
// last lookups only within the zones' bounds. A winter and a summer time of
// one location (EST, EDT), alternating with UTC and a fixed zone, encode as
// a fresh encoder encodes each (the zone name and offset are in the
// encoding): without the bounds, the summer time would get EST.
func TestZoneCacheBounds(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	winter := time.Date(2026, 1, 15, 12, 0, 0, 0, ny)
	summer := time.Date(2026, 7, 15, 12, 0, 0, 0, ny)
	justBefore := time.Date(2026, 3, 8, 1, 59, 59, 0, ny) // EST; 2:00 EST becomes 3:00 EDT
	justAfter := justBefore.Add(time.Second)              // EDT
	fixed := time.FixedZone("shop", 3600)
	times := []time.Time{winter, summer, winter, justBefore, justAfter, justBefore,
		time.Time{}, summer.UTC(), summer.In(fixed), time.Unix(0, 0), summer, winter.Local()}
	e := &Encoder{}
	for i, tm := range times {
		e.Buf = e.Buf[:0]
		Encode(e, tm)
		fresh := &Encoder{}
		Encode(fresh, tm)
		if !bytes.Equal(e.Buf, fresh.Buf) {
			t.Errorf("time %d (%v): %x, a fresh encoder: %x", i, tm, e.Buf, fresh.Buf)
		}
		name, _ := tm.Zone()
		if !bytes.Contains(fresh.Buf, []byte(name)) {
			t.Errorf("time %d (%v): zone %q not in %x", i, tm, name, fresh.Buf)
		}
	}
}

type laterOwnedPointee struct{ n int }

// TestPointerPlanAfterRegistration: a pointer's plan caches whether its
// element type is observed; registering the type afterwards makes the next
// pointer an observed object (TagObject with contents), not a reference.
func TestPointerPlanAfterRegistration(t *testing.T) {
	p := &laterOwnedPointee{7}
	e := &Encoder{Objects: newTable()}
	for range 2 { // the answer cached
		e.Buf = e.Buf[:0]
		Encode(e, p)
		if e.Buf[0] != TagRef {
			t.Fatalf("before registration: tag %d, want a reference", e.Buf[0])
		}
	}
	own := reflect.TypeFor[laterOwnedPointee]()
	RegisterOwnType(own)
	defer func() {
		registry.Lock()
		delete(registry.own, own)
		observedTypes.Clear()
		observedGen.Add(1)
		registry.Unlock()
	}()
	e = &Encoder{Objects: newTable()}
	Encode(e, p)
	if e.Buf[0] != TagObject {
		t.Fatalf("after registration: tag %d, want an observed object", e.Buf[0])
	}
}

type plainSider struct{}

func (*plainSider) Sides() int { return 3 }

// TestImplementsCacheAfterRegistration: an interface value's dynamic type
// plan caches its implements prefix; an interface asserted later (here a
// fresh one the dynamic type implements) must appear in the next encoding.
func TestImplementsCacheAfterRegistration(t *testing.T) {
	type laterAsserted interface{ Sides() int }
	RegisterAsserted(reflect.TypeFor[temporaryErr]()) // some asserted interface: prefixes are computed and cached
	v := any(&plainSider{})
	enc := func() string {
		e := &Encoder{Objects: newTable()}
		Encode(e, v)
		s, err := Render(e.Buf)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if s := enc(); strings.Contains(s, "laterAsserted") {
		t.Fatalf("before registration: %s", s)
	}
	enc() // cached
	later := reflect.TypeFor[laterAsserted]()
	RegisterAsserted(later)
	defer func() { // other tests expect their own asserted interfaces only
		asserted.Lock()
		delete(asserted.byName, TypeName(later))
		asserted.list = slices.DeleteFunc(asserted.list, func(t reflect.Type) bool { return t == later })
		implCache.Clear()
		prefixCache.Clear()
		prefixGen.Add(1)
		asserted.Unlock()
	}()
	if s := enc(); !strings.Contains(s, "laterAsserted") {
		t.Fatalf("after registration: %s, want the implements prefix", s)
	}
}

// TestEncodeRecvName: EncodeRecv's name is TypeName of the value's dynamic
// type, and its encoding is Encode's.
func TestEncodeRecvName(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	check := func(name string, enc func(e *Encoder) string, plain func(e *Encoder), want reflect.Type) {
		t.Helper()
		e, p := &Encoder{Objects: newTable()}, &Encoder{Objects: newTable()}
		if got := enc(e); got != TypeName(want) {
			t.Errorf("%s: name %q, want %q", name, got, TypeName(want))
		}
		plain(p)
		if !bytes.Equal(e.Buf, p.Buf) {
			t.Errorf("%s: %x, Encode: %x", name, e.Buf, p.Buf)
		}
	}
	pricer := &shopPricer{}
	check("pointer", func(e *Encoder) string { return EncodeRecv(e, pricer) }, func(e *Encoder) { Encode(e, pricer) }, reflect.TypeFor[*shopPricer]())
	check("interface", func(e *Encoder) string { return EncodeRecv(e, ctx) }, func(e *Encoder) { Encode(e, ctx) }, reflect.TypeOf(ctx))
	var none context.Context
	check("nil interface", func(e *Encoder) string { return EncodeRecv(e, none) }, func(e *Encoder) { Encode(e, none) }, reflect.TypeFor[context.Context]())
	now := time.Now()
	check("value", func(e *Encoder) string { return EncodeRecv(e, now) }, func(e *Encoder) { Encode(e, now) }, reflect.TypeFor[time.Time]())
}

type grownArg struct {
	Before string
	Nested any
	Counts map[string]int
	After  string
	When   time.Time
}

// TestEncodeArgumentFromItsMemory: Encode[T] encodes a struct argument
// from its own memory, on the stack, not a copy. A value whose encoding
// grows the goroutine's stack (a deep chain of interface values, encoded
// recursively on a new goroutine's small stack), with a map and fields
// after the chain, encodes as the same value from the heap (EncodeValue
// of an addressable copy): the pointer to the argument moves with the
// stack.
func TestEncodeArgumentFromItsMemory(t *testing.T) {
	var chain any = "end"
	for range MaxDepth - 4 {
		chain = []any{chain, strings.Repeat("x", 3)}
	}
	v := grownArg{Before: "before", Nested: chain, Counts: map[string]int{"a": 1, "b": 2}, After: "after", When: time.Unix(1700000000, 5)}
	want := &Encoder{}
	heap := new(grownArg)
	*heap = v
	want.EncodeValue(reflect.ValueOf(heap).Elem())
	for range 20 {
		got := make(chan []byte)
		go func() {
			e := &Encoder{}
			Encode(e, v)
			got <- e.Buf
		}()
		if b := <-got; !bytes.Equal(b, want.Buf) {
			t.Fatalf("from the argument:\n%x\nfrom the heap:\n%x", b, want.Buf)
		}
	}
}

type laterTypedErr struct{ Code int }

func (e laterTypedErr) Error() string { return "code " + strings.Repeat("x", e.Code) }

// TestTypedErrorAfterRegistration: an error type's plan caches whether its
// values are recorded by value (registered type); registering the type
// after an error of it was encoded makes the next one a TagTypedError.
func TestTypedErrorAfterRegistration(t *testing.T) {
	err := laterTypedErr{2}
	for range 2 { // the answer cached
		e := &Encoder{}
		e.EncodeError(err)
		if e.Buf[0] != TagError {
			t.Fatalf("before registration: tag %d, want an error by message", e.Buf[0])
		}
	}
	typ := reflect.TypeFor[laterTypedErr]()
	RegisterType(typ)
	defer func() {
		registry.Lock()
		delete(registry.types, TypeName(typ))
		registry.Unlock()
		prefixGen.Add(1)
	}()
	e := &Encoder{}
	e.EncodeError(err)
	if e.Buf[0] != TagTypedError {
		t.Fatalf("after registration: tag %d, want a typed error", e.Buf[0])
	}
}

var laterSentinel = &laterSentinelErr{"later"}

type laterSentinelErr struct{ msg string }

func (e *laterSentinelErr) Error() string { return e.msg }

// TestSentinelAfterRegistration: an error type's plan caches whether any
// sentinel has the type; a sentinel of the type registered after an error
// of it was encoded is encoded by name next.
func TestSentinelAfterRegistration(t *testing.T) {
	for range 2 { // the answer cached
		e := &Encoder{}
		e.EncodeError(laterSentinel)
		if e.Buf[0] != TagError {
			t.Fatalf("before registration: tag %d, want an error by message", e.Buf[0])
		}
	}
	RegisterSentinel("example.com/p.ErrLater", laterSentinel)
	defer func() { // other tests expect their own sentinels only
		registry.Lock()
		delete(registry.byName, "example.com/p.ErrLater")
		sentinels.Delete(error(laterSentinel))
		sentinelTypes.Delete(reflect.TypeOf(laterSentinel))
		registry.Unlock()
		sentinelGen.Add(1)
	}()
	e := &Encoder{}
	e.EncodeError(laterSentinel)
	if e.Buf[0] != TagSentinel {
		t.Fatalf("after registration: tag %d, want a sentinel", e.Buf[0])
	}
}

type fieldErr struct{ Name, Msg string }

func (e fieldErr) Error() string { return e.Name + ": " + e.Msg }

type multiErr []error

func (m multiErr) Error() string {
	var parts []string
	for _, e := range m {
		parts = append(parts, e.Error())
	}
	return strings.Join(parts, ";")
}

// TestCollectionErrorByValue: an error of a registered slice type (a
// multi-error, govalidator's `type Errors []error`) is recorded by value,
// so that replay hands the code an error of its own type whose elements
// it can range over (`case Errors:` in a type switch), not a stand-in with
// the message; a player of a log of LastPlainCollectionErrorFormat or
// before writes it by its message, as that log does.
func TestCollectionErrorByValue(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeFor[multiErr](), reflect.TypeFor[fieldErr]()} {
		RegisterType(typ)
		defer func() {
			registry.Lock()
			delete(registry.types, TypeName(typ))
			registry.Unlock()
			prefixGen.Add(1)
		}()
	}
	err := multiErr{fieldErr{"Title", "not alpha"}, fieldErr{"IP", "not ipv4"}}
	e := &Encoder{}
	e.EncodeError(err)
	if e.Buf[0] != TagTypedError {
		t.Fatalf("tag %d, want a typed error", e.Buf[0])
	}
	d := Decoder{Buf: e.Buf}
	got := d.DecodeError()
	if d.Err != nil {
		t.Fatal(d.Err)
	}
	m, ok := got.(multiErr)
	if !ok || len(m) != 2 || m[1] != (fieldErr{"IP", "not ipv4"}) {
		t.Fatalf("decoded %#v, want %#v", got, err)
	}

	SetPlainCollectionErrors(true)
	defer SetPlainCollectionErrors(false)
	e = &Encoder{}
	e.EncodeError(err)
	if e.Buf[0] != TagError {
		t.Fatalf("for a log of format %d: tag %d, want an error by message", LastPlainCollectionErrorFormat, e.Buf[0])
	}
}
