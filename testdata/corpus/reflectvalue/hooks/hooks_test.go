package hooks_test

import (
	"reflect"
	"testing"

	"example.com/reflectvalue/hooks"
	"example.com/reflectvalue/model"
)

func TestAssign(t *testing.T) {
	c := model.New("s3cret")
	p := &c
	out, err := hooks.Assign(reflect.ValueOf(&p), "Port", 8080)
	if err != nil {
		t.Fatal(err)
	}
	if c.Port != 8080 || out.(model.Config).Port != 8080 {
		t.Fatalf("Port = %d, result %+v", c.Port, out)
	}
	if _, err := hooks.Assign(reflect.ValueOf(&c).Elem(), "Name", "api"); err != nil || c.Name != "api" {
		t.Fatalf("Name = %q, %v", c.Name, err)
	}
	if _, err := hooks.Assign(reflect.ValueOf(c), "Name", "x"); err == nil {
		t.Fatal("a copy was set")
	}
}

func TestDescribe(t *testing.T) {
	c := model.New("s3cret")
	c.Port = 7
	for _, tc := range []struct {
		v    reflect.Value
		want string
	}{
		{reflect.Value{}, "invalid"},
		{reflect.ValueOf(42), "int int 42"},
		{reflect.ValueOf(&c).Elem().Field(1), "int int addressable 7"},
		{model.Secret(c), "string string read-only \"s3cret\""},
	} {
		if got := hooks.Describe(tc.v); got != tc.want {
			t.Errorf("Describe = %q, want %q", got, tc.want)
		}
	}
}

func TestFields(t *testing.T) {
	c := model.New("k")
	fs := hooks.Fields(reflect.ValueOf(&c))
	if len(fs) != 3 {
		t.Fatalf("%d fields", len(fs))
	}
	fs[0].SetString("set through a returned field")
	if c.Name != "set through a returned field" || fs[2].CanInterface() {
		t.Fatalf("%+v", c)
	}
}
