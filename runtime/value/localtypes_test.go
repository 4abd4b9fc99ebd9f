package value

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// Two function-local types of one name that reflection tells apart, as
// toml's tests declare `type simple struct` with other tags in four test
// functions.

func omitEmpty() any {
	type fpSimple struct {
		A int `toml:"a,omitempty"`
	}
	return fpSimple{1}
}

func omitZero() any {
	type fpSimple struct {
		A int `toml:"a,omitzero"`
	}
	return &fpSimple{2}
}

func inLiteral() any {
	type fpSimple struct {
		A int `toml:"a,omitzero"`
		B string
	}
	return struct {
		F fpSimple `toml:"f"`
		N int
	}{F: fpSimple{3, "b"}, N: 4}
}

// TestFingerprintTellsLocalTypesApart: the log names each of the types of
// one name with the fingerprint of its structure, LinkedType finds each by
// it, a struct literal holding one is spelled with full paths and made
// again, and a value of each decodes (Linked) as its very type.
func TestFingerprintTellsLocalTypesApart(t *testing.T) {
	a, b := reflect.TypeOf(omitEmpty()), reflect.TypeOf(omitZero()).Elem()
	lit := reflect.TypeOf(inLiteral())
	na, nb := TypeName(a), TypeName(b)
	if na == nb || !strings.HasPrefix(na, thisPkg+".fpSimple"+fingerprintSep) || !strings.HasPrefix(nb, thisPkg+".fpSimple"+fingerprintSep) {
		t.Fatalf("names %q and %q: want the name and a fingerprint each, apart", na, nb)
	}
	for _, c := range []struct {
		name string
		want reflect.Type
	}{{na, a}, {nb, b}, {"*" + nb, reflect.PointerTo(b)}, {"[]" + na, reflect.SliceOf(a)}} {
		if got, ok := LinkedType(c.name); !ok || got != c.want {
			t.Errorf("LinkedType(%q) = %v, %v; want %v", c.name, got, ok, c.want)
		}
	}
	if _, ok := LinkedType(thisPkg + ".fpSimple"); ok {
		t.Errorf("LinkedType of the name without a fingerprint found one of three types reflection tells apart")
	}
	if _, ok := LinkedType(thisPkg + ".fpSimple" + fingerprintSep + strings.Repeat("0", fingerprintLen)); ok {
		t.Errorf("LinkedType found a type for a fingerprint none has")
	}
	ln := TypeName(lit)
	if !strings.Contains(ln, thisPkg+".fpSimple"+fingerprintSep) || !strings.HasPrefix(ln, "struct { F ") {
		t.Fatalf("struct literal named %q: want its field's type with full path and fingerprint", ln)
	}
	if got, ok := LinkedType(ln); !ok || got != lit {
		t.Errorf("LinkedType(%q) = %v, %v; want the literal", ln, got, ok)
	}
	for _, v := range []any{omitEmpty(), omitZero(), inLiteral()} {
		e := &Encoder{Objects: newTable(), Deep: true, Refresh: true}
		Encode[any](e, v)
		d := &Decoder{Buf: e.Buf, Resolver: newTable(), Linked: true}
		got := Decode[any](d)
		if d.Err != nil || d.Unbuilt != "" || reflect.TypeOf(got) != reflect.TypeOf(v) {
			t.Errorf("Decode of a %T = %T, err %v, unbuilt %q", v, got, d.Err, d.Unbuilt)
			continue
		}
		e2 := &Encoder{Objects: newTable(), Deep: true, Refresh: true}
		Encode[any](e2, got)
		if string(e2.Buf) != string(e.Buf) {
			t.Errorf("%T re-encodes otherwise", v)
		}
	}
}

// TestRegisteredTypeKeepsItsName: a registered type is named without a
// fingerprint even where a local type shares its name (replay finds it by
// that name), and its name is its registered one whatever TypeName said of
// it before it was registered.
func TestRegisteredTypeKeepsItsName(t *testing.T) {
	type fpReg struct{ A int }
	local := func() reflect.Type {
		type fpReg struct{ B string }
		return reflect.TypeFor[fpReg]()
	}()
	reg := reflect.TypeFor[fpReg]()
	before := TypeName(reg)
	if !strings.Contains(before, fingerprintSep) {
		t.Fatalf("unregistered %q: want a fingerprint", before)
	}
	RegisterType(reflect.PointerTo(reg))
	if n := TypeName(reg); n != thisPkg+".fpReg" {
		t.Errorf("registered: TypeName = %q, want the plain name", n)
	}
	if got, ok := LookupType(thisPkg + ".fpReg"); !ok || got != reg {
		t.Errorf("LookupType = %v, %v", got, ok)
	}
	ln := TypeName(local)
	if !strings.Contains(ln, fingerprintSep) {
		t.Fatalf("local %q: want a fingerprint", ln)
	}
	if got, ok := LinkedType(ln); !ok || got != local {
		t.Errorf("LinkedType(%q) = %v, %v; want the local type", ln, got, ok)
	}
}

// TestMadeTypes: unnamed struct, func and chan types are made from their
// names when their parts can be named; a struct literal with an unexported
// field or embedding a type with methods is not.
func TestMadeTypes(t *testing.T) {
	for _, c := range []struct {
		name string
		want reflect.Type // nil: made, compared by name
	}{
		{"func()", reflect.TypeFor[func()]()},
		{"func(string, ...interface {}) (int, error)", reflect.TypeFor[func(string, ...any) (int, error)]()},
		{"func(time.Duration) time.Time", reflect.TypeFor[func(time.Duration) time.Time]()},
		{"chan int", reflect.TypeFor[chan int]()},
		{"<-chan string", reflect.TypeFor[<-chan string]()},
		{"[]func() bool", reflect.TypeFor[[]func() bool]()},
		{`struct { Zq9 int "x:\"y; z\""; Map map[string]interface {}; Fn func(int) string }`, nil},
		{"struct { Dur time.Duration; P *time.Location }", nil},
		{"*struct { A1 [2]struct { B int } }", nil},
	} {
		got, ok := LinkedType(c.name)
		if !ok || c.want != nil && got != c.want || got.String() != c.name {
			t.Errorf("LinkedType(%q) = %v, %v", c.name, got, ok)
		}
	}
	for _, n := range []string{"struct { a int }", "struct { time.Time }", "struct { A nowhere.T }", "func(nowhere.T)", "chan nowhere.T"} {
		if got, ok := LinkedType(n); ok {
			t.Errorf("LinkedType(%q) = %v; want none", n, got)
		}
	}
	if _, err := structTypeByName("struct { time.Time }"); err == nil || !strings.Contains(err.Error(), "methods") {
		t.Errorf("embedding time.Time: %v", err)
	}
}

// TestFingerprintFromTheLog: a type the log names with a fingerprint is
// named so by this binary's encodings too, though the binary holds no
// other type of its name (the capture's held one more, in code the replay
// binary does not link).
func TestFingerprintFromTheLog(t *testing.T) {
	type fpAlone struct{ A int }
	typ := reflect.TypeFor[fpAlone]()
	plain := TypeName(typ)
	if strings.Contains(plain, fingerprintSep) {
		t.Fatalf("%q: want no fingerprint for a type alone with its name", plain)
	}
	ptr := TypeName(reflect.PointerTo(typ)) // cached before the log names it
	logged := plain + fingerprintSep + fingerprint(typ)
	if got, ok := LinkedType(logged); !ok || got != typ {
		t.Fatalf("LinkedType(%q) = %v, %v", logged, got, ok)
	}
	if n := TypeName(typ); n != logged {
		t.Errorf("after the log named it: TypeName = %q, want %q", n, logged)
	}
	if n := TypeName(reflect.PointerTo(typ)); n != "*"+logged || n == ptr {
		t.Errorf("after the log named it: TypeName of its pointer = %q", n)
	}
}
