package reflectedwrite

import (
	"net"
	"strings"
	"testing"
	"time"
)

// TestFields decodes into fields that other packages' methods set:
// time.Time at the struct's start and net.IP inside it.
func TestFields(t *testing.T) {
	var x struct {
		When time.Time
		Name string
		IP   net.IP
	}
	if err := Decode("when=2012-01-02T15:16:17Z\nname=db\nip=192.168.59.254", &x); err != nil {
		t.Fatal(err)
	}
	if x.When.Year() != 2012 || x.Name != "db" || x.IP.String() != "192.168.59.254" {
		t.Fatalf("got %+v", x)
	}
}

type menu struct{ Dishes []string }

func (m *menu) UnmarshalValue(s string) error {
	m.Dishes = strings.Split(s, "\n")
	return nil
}

// TestSelf decodes into a type of the test file that decodes itself.
func TestSelf(t *testing.T) {
	var m menu
	if err := Decode("eggs\nham", &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Dishes) != 2 {
		t.Fatalf("got %v", m.Dishes)
	}
}
