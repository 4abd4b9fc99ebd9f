package probe

import (
	"reflect"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/value"
)

type unrebuiltKnown struct{ A int }

func TestTypeNameParts(t *testing.T) {
	for name, want := range map[string][]string{
		"*example.com/a.T":                      {"example.com/a.T"},
		"map[string][]*example.com/a.T":         {"string", "example.com/a.T"},
		"[3]example.com/a.T":                    {"example.com/a.T"},
		"map[string]interface {}":               {"string"},
		"[]map[example.com/a.K]example.com/b.V": {"example.com/a.K", "example.com/b.V"},
	} {
		if got := typeNameParts(name); !reflect.DeepEqual(got, want) {
			t.Errorf("typeNameParts(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestUnrebuiltWhy(t *testing.T) {
	value.RegisterType(reflect.TypeFor[unrebuiltKnown]())
	known := value.TypeName(reflect.TypeFor[unrebuiltKnown]())
	value.ObservePackage("example.com/unrebuilt/obs")
	DeclaredWhere("example.com/unrebuilt/hinted.T", "inside a function (t_test.go:12)")
	for name, want := range map[string]string{
		"*struct { obs.T }":                          "a type literal without a name",
		"*main.Profile":                              "main.Profile is declared in package main",
		"[]example.com/unrebuilt/obs_test.T":         "example.com/unrebuilt/obs_test.T is declared in an external test package",
		"map[string]example.com/unrebuilt/obs.local": "example.com/unrebuilt/obs.local is declared inside a function or in a _test.go file of the observed package",
		"*example.com/unrebuilt/hinted.T":            "example.com/unrebuilt/hinted.T is declared inside a function (t_test.go:12)",
		"*example.com/unrebuilt/other.T":             "example.com/unrebuilt/other.T is declared in a package the replay build does not contain",
		// The first part it cannot name is the one the note names.
		"map[" + known + "]example.com/unrebuilt/obs_test.V": "obs_test.V is declared in an external test package",
	} {
		if got := UnrebuiltWhy(name); !strings.HasPrefix(got, want) && !strings.Contains(got, want) {
			t.Errorf("UnrebuiltWhy(%q) = %q, want it to say %q", name, got, want)
		}
	}
}
