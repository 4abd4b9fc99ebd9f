package transform_test

import (
	"strings"
	"testing"
)

func TestRedactMarks(t *testing.T) {
	src := `package p

//capture:redact-names +pin

//capture:redact
type Key string

type Login struct {
	User     string
	Password string
	Card     string //capture:redact
}

// Connect opens a connection.
//
//capture:redact dsn
func Connect(dsn string, user string) int { return len(user) }

func SetToken(apiToken []byte, k Key, pin string) {}
`
	out, err := instrumentSource(t, "p/p.go", src)
	if err != nil {
		t.Fatal(err)
	}
	gen := string(out.Gen)
	for _, want := range []string{
		`probe.RedactNames("+pin")`,
		`probe.RedactType[Key]()`,
		`probe.RedactField[Login]("Card")`,
		`s.Secret(string(p0), "parameter dsn of example.com/p.Connect")`,
		`s.String(string(p1))`, // user: not secret
		`s.SecretBytes([]byte(p0), "parameter apiToken of example.com/p.SetToken")`,
		`s.Secret(string(p1), "type example.com/p.Key")`,
		`s.Secret(string(p2), "parameter pin of example.com/p.SetToken")`,
	} {
		if !strings.Contains(gen, want) {
			t.Errorf("generated file lacks %s", want)
		}
	}
	if t.Failed() {
		t.Log(gen)
	}
}

func TestRedactRejects(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"package p\n\ntype T struct {\n\tCard int64 //capture:redact\n}\n", "not a named string or []byte field"},
		{"package p\n\n//capture:redact\ntype N int\n", "neither a string, []byte nor struct type"},
		{"package p\n\n//capture:redact n\nfunc F(n int) {}\n", "neither a string nor a []byte"},
		{"package p\n\n//capture:redact x\nfunc F(n string) {}\n", "which is no parameter of F"},
	} {
		_, err := instrumentSource(t, "p/p.go", c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.src, err, c.want)
		}
	}
}
