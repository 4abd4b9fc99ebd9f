package user_test

import (
	"reflect"
	"testing"

	"example.com/testtypes/check"
	"example.com/testtypes/env"
	"example.com/testtypes/user"
)

type Ext struct {
	Env env.Env `check:"env"`
	N   int     `check:"n"`
}

func TestExternal(t *testing.T) {
	if got := user.Describe(&Ext{}); got != "Env=env,N=n" {
		t.Fatalf("Describe = %q", got)
	}
	if got := check.Kind(reflect.TypeOf(Ext{})); got != "struct/Ext" {
		t.Fatalf("Kind = %q", got)
	}
	if got := check.Kind(reflect.TypeOf(func(Ext, env.Env) {})); got != "func/inin" {
		t.Fatalf("Kind = %q", got)
	}
	// No rule is registered in this test binary: check's test files,
	// which register "upper", are not part of it.
	if bad := check.Validate(env.Env{Name: "low"}); len(bad) != 0 {
		t.Fatalf("Validate = %v", bad)
	}
}

func TestLocal(t *testing.T) {
	type local struct {
		V string `check:"v"`
	}
	if got := user.Describe(local{}); got != "V=v" {
		t.Fatalf("Describe = %q", got)
	}
}
