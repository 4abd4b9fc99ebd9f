package value

import (
	"reflect"
	"testing"
)

// byValueOnly is used only by value: in a slice and a func type.
type byValueOnly float32

var byValueOnlyUses = []any{[]byValueOnly{1}, func(byValueOnly) float64 { return 0 }}

// TestLinkedTypeByPathAndName: LinkedType finds a named type of the binary
// by its package path and name (namedInBinary), not by a guess of the
// package's name (an external test package in directory issues/688 is
// package issue_test, and its types' reflect strings say "issue_test.Env"),
// and ReflectTypeByName makes a func type of it, as for a recorded
// reflect.Type of expr's environments.
func TestLinkedTypeByPathAndName(t *testing.T) {
	want := reflect.TypeOf(byValueOnlyUses[0]).Elem()
	name := TypeName(want)
	if got := namedInBinary(want.PkgPath(), want.Name()); len(got) != 1 || got[0] != want {
		t.Fatalf("namedInBinary(%q, %q) = %v, want [%v]", want.PkgPath(), want.Name(), got, want)
	}
	if got, ok := LinkedType(name); !ok || got != want {
		t.Fatalf("LinkedType(%q) = %v, %v; want %v", name, got, ok, want)
	}
	fn := reflect.TypeOf(byValueOnlyUses[1])
	if got, ok := ReflectTypeByName(TypeName(fn)); !ok || got != fn {
		t.Errorf("ReflectTypeByName(%q) = %v, %v; want %v", TypeName(fn), got, ok, fn)
	}
	if got := namedInBinary(want.PkgPath(), "noSuchType"); len(got) != 0 {
		t.Errorf("namedInBinary of an unknown name = %v", got)
	}
}
