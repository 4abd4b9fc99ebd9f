package value

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"reflect"
	"strings"
	"testing"
)

type redactLogin struct {
	User        string
	Password    string // a default name
	Card        string // registered below
	APIKey      []byte // a default name, []byte
	TokenCount  int    // a default name, but not a string: not redacted
	Description string
}

type redactSecret string

type redactHolder struct {
	S redactSecret
	N string
}

func init() {
	RedactField(reflect.TypeFor[redactLogin](), "Card")
	RedactType(reflect.TypeFor[redactSecret]())
}

func encodeOne[T any](v T) []byte {
	var e Encoder
	Encode(&e, v)
	return e.Buf
}

func redactedOf(t *testing.T, key []byte, secret string) []byte {
	t.Helper()
	h := RedactHash(key, secret)
	return append([]byte{TagRedacted}, h[:]...)
}

func TestRedactHashIsKeyedAndTruncated(t *testing.T) {
	a := RedactHash([]byte("k1"), "hunter2")
	b := RedactHash([]byte("k2"), "hunter2")
	c := RedactHash([]byte("k1"), "hunter3")
	if a == b || a == c {
		t.Fatalf("hashes do not depend on key and content: %x %x %x", a, b, c)
	}
	m := hmac.New(sha256.New, []byte("k1"))
	m.Write([]byte("hunter2"))
	if full := m.Sum(nil); !bytes.Equal(a[:], full[:RedactHashLen]) {
		t.Fatalf("hash %x, want the first %d bytes of HMAC-SHA256 %x", a, RedactHashLen, full)
	}
	if keyedHash("hunter2") != RedactHash(redactKey(), "hunter2") || keyedHash("x") != RedactHash(redactKey(), "x") {
		t.Fatal("the pooled HMACs hash differently")
	}
}

func TestRedactFieldsAndContent(t *testing.T) {
	ResetRedaction()
	defer ResetRedaction()
	key := redactKey()
	l := redactLogin{User: "bob", Password: "hunter2-pw", Card: "4111111111111111", APIKey: []byte("ak-123"), TokenCount: 7, Description: "plain"}
	b := encodeOne(l)
	for _, secret := range []string{"hunter2-pw", "4111111111111111", "ak-123"} {
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("encoding holds %q: %q", secret, b)
		}
		if !bytes.Contains(b, redactedOf(t, key, secret)) {
			t.Errorf("encoding lacks the hash of %q", secret)
		}
	}
	if !bytes.Contains(b, []byte("bob")) || !bytes.Contains(b, []byte("plain")) {
		t.Errorf("unmarked fields redacted: %q", b)
	}
	r, err := Render(b)
	if err != nil || !strings.Contains(r, "redacted(") || strings.Contains(r, "hunter2") {
		t.Fatalf("Render: %q, %v", r, err)
	}

	// A known secret is redacted wherever it appears afterwards, as a
	// string or a []byte, marked or not.
	if got, want := encodeOne("hunter2-pw"), redactedOf(t, key, "hunter2-pw"); !bytes.Equal(got, want) {
		t.Errorf("known secret as a plain string: %q, want %q", got, want)
	}
	if got, want := encodeOne([]byte("4111111111111111")), redactedOf(t, key, "4111111111111111"); !bytes.Equal(got, want) {
		t.Errorf("known secret as []byte: %q, want %q", got, want)
	}
	if got := encodeOne(any("ak-123")); bytes.Contains(got, []byte("ak-123")) {
		t.Errorf("known secret in an interface: %q", got)
	}
	// Other strings, and an empty secret, are written as before.
	if got, want := encodeOne("hunter3-pw"), AppendString(nil, "hunter3-pw"); !bytes.Equal(got, want) {
		t.Errorf("unknown string: %q, want %q", got, want)
	}
	if got, want := encodeOne(redactLogin{}), encodeOne(struct {
		A, B, C string
		D       []byte
		E       int
		F       string
	}{}); !bytes.Equal(got, want) {
		t.Errorf("empty secrets: %q, want %q", got, want)
	}
}

func TestRedactType(t *testing.T) {
	ResetRedaction()
	defer ResetRedaction()
	for _, b := range [][]byte{encodeOne(redactSecret("s3cr3t-type")), encodeOne(redactHolder{S: "s3cr3t-type2", N: "n"}), encodeOne(any(redactSecret("s3cr3t-type3")))} {
		if bytes.Contains(b, []byte("s3cr3t")) || b[bytes.IndexByte(b, TagRedacted)] != TagRedacted {
			t.Errorf("secret type written: %q", b)
		}
	}
}

// In replay the player decodes a redacted value into a stand-in; the
// stand-in encodes as the recorded value again, anything derived from it
// does not, and RedactionNote says what happened.
func TestRedactStandInRoundTrip(t *testing.T) {
	ResetRedaction()
	defer ResetRedaction()
	recorded := encodeOne(redactLogin{User: "bob", Password: "hunter2-pw", Card: "4111111111111111"})
	ResetRedaction() // the replay process: no secrets, no key
	SetReplayRedaction()
	if RedactionNote("x") != "" {
		t.Fatal("a note before any stand-in was handed out")
	}
	d := &Decoder{Buf: recorded}
	got := Decode[redactLogin](d)
	if d.Err != nil {
		t.Fatal(d.Err)
	}
	if got.User != "bob" || !strings.HasPrefix(got.Password, standInPrefix) || len(got.Password) != standInLen || got.Password == got.Card {
		t.Fatalf("decoded %+v", got)
	}
	if again := encodeOne(got); !bytes.Equal(again, recorded) {
		t.Fatalf("stand-ins do not encode as recorded:\n%q\n%q", again, recorded)
	}
	// The stand-in passed on alone (a parameter of an external check).
	if b := encodeOne(got.Password); b[0] != TagRedacted || !bytes.Contains(recorded, b) {
		t.Fatalf("stand-in alone: %q", b)
	}
	// Computing on it: the value differs, and the note names the field.
	derived := encodeOne(strings.ToUpper(got.Password))
	if bytes.Contains(recorded, derived) {
		t.Fatal("a derived value matches the recording")
	}
	r, _ := Render(derived)
	note := RedactionNote(r)
	if !strings.Contains(note, "observed code used the content of a redacted value (field Password of ") {
		t.Fatalf("note %q", note)
	}
	if note := RedactionNote("false"); !strings.Contains(note, "may have used the content of a redacted value") {
		t.Fatalf("note %q", note)
	}
	// A marked value that is no stand-in is written as it is in replay:
	// it cannot match a recorded hash.
	var e Encoder
	e.Secret("hunter2-pw", "x")
	if !bytes.Equal(e.Buf, AppendString(nil, "hunter2-pw")) {
		t.Fatalf("replay's encoding of an unknown secret: %q", e.Buf)
	}
}

func TestRedactNames(t *testing.T) {
	names := ApplyRedactNames(DefaultRedactNames, []string{"+card_number", "-cookie", "ssn"})
	for name, want := range map[string]bool{
		"Password": true, "new_password": true, "X-Api-Key": true, "ClientSecret": true, "AccessToken": true,
		"CardNumber": true, "SSN": true, "cookie": false, "User": false, "Description": false,
	} {
		if got := RedactNameMatches(name, names); got != want {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
}
