package decode

import (
	"math/big"
	"strings"
	"testing"
)

// The targets are declared in a test file, as mapstructure's are.
type service struct {
	Name  string
	Owner string
}

type Namer interface{ Name() string }

type named struct{ s string }

func (n *named) Name() string { return n.s }

type limits struct {
	Max  big.Int
	Unit string
}

// TestConfigResult: the target crosses in the config's Result field at
// NewDecoder; Decode walks its fields and reads the one it keeps.
func TestConfigResult(t *testing.T) {
	out := &service{Owner: "ops"}
	d := NewDecoder(&Config{Result: out, MatchName: strings.EqualFold})
	report, err := d.Decode(map[string]string{"name": "api"})
	if err != nil || out.Name != "api" || out.Owner != "ops" {
		t.Fatalf("got %+v, %v", *out, err)
	}
	if strings.Join(report, " ") != "Name:=api Owner=ops" {
		t.Fatalf("report %v", report)
	}
}

// TestHookResult: the hook's result, of a type of this file, fits the
// target, an interface of this file.
func TestHookResult(t *testing.T) {
	hook := func(s string) any { return &named{s: s + "!"} }
	var who Namer
	if err := Store(&who, "x", hook); err != nil || who.Name() != "x!" {
		t.Fatalf("got %v, %v", who, err)
	}
	var unit string
	if err := Store(&unit, "s", hook); err == nil {
		t.Fatal("a *named fits a string")
	}
}

// TestReflectNew: a big.Int made by reflect.New, filled by its own
// UnmarshalText, and one in a field of the config's result.
func TestReflectNew(t *testing.T) {
	got, err := Parse(big.Int{}, "42")
	if err != nil || got.(*big.Int).Int64() != 42 {
		t.Fatal(got, err)
	}
	if _, err := Parse(big.Int{}, "x"); err == nil {
		t.Fatal("no error")
	}
	out := &limits{Unit: "req"}
	d := NewDecoder(&Config{Result: out, MatchName: strings.EqualFold})
	report, err := d.Decode(map[string]string{"max": "7", "unit": "rps"})
	if err != nil || strings.Join(report, " ") != "Max:={false [7]} Unit:=rps" || out.Max.Int64() != 7 {
		t.Fatal(report, err)
	}
}

// TestNilPointee: the caller sets the slice back to nil between calls.
func TestNilPointee(t *testing.T) {
	var got []string
	if n := Append(&got); n != 0 || got == nil {
		t.Fatalf("first: %d %v", n, got)
	}
	got = nil
	if n := Append(&got, "a"); n != 1 || got[0] != "a" {
		t.Fatalf("second: %d %v", n, got)
	}
}
