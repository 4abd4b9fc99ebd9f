package user_test

import (
	"reflect"
	"testing"

	"example.com/repros/genericlocal/assert"
	"example.com/repros/genericlocal/user"
)

// TestLocalConfig and TestOtherLocalConfig each declare a type Config
// inside the function, of other structures: the capture names each with a
// fingerprint (user_test.Config·…), in the site of assert.Equal[*Config]
// too. No harness can name either.
func TestLocalConfig(t *testing.T) {
	type Config struct{ N int }
	if !assert.Equal(&Config{user.Double(1)}, &Config{2}) {
		t.Fatal("Double")
	}
}

func TestOtherLocalConfig(t *testing.T) {
	type Config struct{ S string }
	if !assert.Equal(Config{"a"}, Config{"a"}) {
		t.Fatal("Config")
	}
}

// TestTypes hands reflect.Type values (pointers to the binary's read-only
// type descriptors) to the observed Equal, which reflects over them.
func TestTypes(t *testing.T) {
	if !assert.Equal(reflect.TypeOf(user.Double(1)), reflect.TypeOf(0)) {
		t.Fatal("TypeOf")
	}
}
