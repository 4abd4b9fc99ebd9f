package value

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"os"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Redaction (docs/redaction.md): a string or []byte marked secret (by its
// type, its struct field, its parameter, or a field or parameter name of
// the redact list) is written as TagRedacted and a keyed hash of its
// content, never as its bytes. Once a secret is known, the same content
// is redacted wherever it crosses the boundary afterwards, marked or not:
// a password that observed code receives in a marked field and passes to
// an external check under a parameter of any name is hashed there too.
//
// Replay hands observed code a stand-in for a redacted value, a string
// that carries the hash; when the stand-in crosses the boundary again it
// is encoded as the same TagRedacted, so a secret that only flows through
// the observed code compares equal. Code that computes on the stand-in's
// content produces other values, and the divergence says so
// (RedactionNote).

// EnvRedactKey names the environment variable holding the key of the
// hashes. Unset, each process draws a random key: hashes are comparable
// within one log, never across runs, and cannot be tested against guessed
// secrets by whoever reads the log.
const EnvRedactKey = "CAPTURE_REDACT_KEY"

// RedactHashLen is the length of a redacted value's hash (HMAC-SHA256,
// truncated): 128 bits make a collision of two secrets of one log
// negligible.
const RedactHashLen = 16

// DefaultRedactNames are the field and parameter names redacted without
// any annotation, matched case-insensitively, ignoring '_' and '-', as a
// substring of the name (NewPassword, X-Api-Key, db_passwd). Only string
// and []byte values are redacted by name.
var DefaultRedactNames = []string{
	"password", "passwd", "passphrase", "secret", "token", "authorization",
	"apikey", "privatekey", "credential", "cookie", "session", "cvv",
}

// NormalizeRedactName is how names are compared: lower case, without '_'
// and '-'.
func NormalizeRedactName(s string) string {
	s = strings.ToLower(s)
	if strings.ContainsAny(s, "_-") {
		s = strings.NewReplacer("_", "", "-", "").Replace(s)
	}
	return s
}

// RedactNameMatches reports whether name matches one of names (already
// normalized).
func RedactNameMatches(name string, names []string) bool {
	n := NormalizeRedactName(name)
	for _, r := range names {
		if r != "" && strings.Contains(n, r) {
			return true
		}
	}
	return false
}

// ApplyRedactNames applies a //capture:redact-names list to names: "+x"
// or "x" adds x, "-x" removes it.
func ApplyRedactNames(names []string, edits []string) []string {
	out := append([]string(nil), names...)
	for _, e := range edits {
		switch {
		case strings.HasPrefix(e, "-"):
			n := NormalizeRedactName(e[1:])
			kept := out[:0]
			for _, x := range out {
				if x != n {
					kept = append(kept, x)
				}
			}
			out = kept
		default:
			n := NormalizeRedactName(strings.TrimPrefix(e, "+"))
			if n != "" && !containsString(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

func containsString(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// Registrations of what is secret: by generated code at package
// initialisation, before any value crosses (plans built earlier are not
// revisited).
var redactReg struct {
	mu     sync.Mutex
	names  atomic.Pointer[[]string]
	types  sync.Map // reflect.Type -> description
	fields sync.Map // redactField -> description
}

type redactField struct {
	t    reflect.Type
	name string
}

func redactNames() []string {
	if p := redactReg.names.Load(); p != nil {
		return *p
	}
	return DefaultRedactNames
}

// EditRedactNames applies a package's //capture:redact-names list to the
// names matched against the fields of every struct type.
func EditRedactNames(edits []string) {
	redactReg.mu.Lock()
	defer redactReg.mu.Unlock()
	l := ApplyRedactNames(redactNames(), edits)
	redactReg.names.Store(&l)
}

// RedactType marks every value of t (a string or []byte type, or a struct
// type: its string and []byte fields) secret.
func RedactType(t reflect.Type) {
	redactReg.types.Store(t, "type "+TypeName(t))
}

// RedactField marks field name of struct type t secret.
func RedactField(t reflect.Type, name string) {
	redactReg.fields.Store(redactField{t, name}, "field "+name+" of "+TypeName(t))
}

// redactable: values of t can be redacted (string and []byte kinds).
func redactable(t reflect.Type) bool {
	return t.Kind() == reflect.String || t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8
}

// fieldRedaction returns the description of field f of struct type t if
// it is secret: registered, of a struct type registered whole, or named
// by the redact list.
func fieldRedaction(t reflect.Type, name string, ft reflect.Type) string {
	if !redactable(ft) {
		return ""
	}
	if d, ok := redactReg.fields.Load(redactField{t, name}); ok {
		return d.(string)
	}
	if _, ok := redactReg.types.Load(t); ok {
		return "field " + name + " of " + TypeName(t)
	}
	if RedactNameMatches(name, redactNames()) {
		return "field " + name + " of " + TypeName(t)
	}
	return ""
}

// typeRedaction returns the description of t if its values are secret.
func typeRedaction(t reflect.Type) string {
	if !redactable(t) {
		return ""
	}
	if d, ok := redactReg.types.Load(t); ok {
		return d.(string)
	}
	return ""
}

// secretPlan is a plan of a redactable type t whose values are secret,
// described by desc: not the type's shared plan (the field of one struct
// is secret, the type elsewhere is not).
func secretPlan(t reflect.Type, desc string) *encPlan {
	pl := newPlan()
	pl.t, pl.kind, pl.name, pl.isError = t, t.Kind(), TypeName(t), t.Implements(errorType)
	pl.redact = desc
	if t.Kind() == reflect.String {
		pl.enc = encSecretString
	} else {
		pl.enc = encSecretBytes
	}
	return pl
}

func encSecretString(e *Encoder, pl *encPlan, p unsafe.Pointer, _ int) {
	e.Secret(*(*string)(p), pl.redact)
}

func encSecretBytes(e *Encoder, pl *encPlan, p unsafe.Pointer, _ int) {
	e.SecretBytes(*(*[]byte)(p), pl.redact)
}

// The secrets known to this process: content -> hash (capture), or
// stand-in -> hash (replay). Two generations bound the memory: when the
// current one is full it becomes the old one, and the old one is dropped.
var secrets struct {
	mu       sync.RWMutex
	cur, old map[string]*secretEntry
	// delivered: the descriptions of the latest stand-ins handed to
	// observed code in replay, the latest first (RedactionNote).
	delivered []delivery
}

// A delivery is a stand-in handed to observed code: its hash in hex, and
// where it was received.
type delivery struct{ hex, desc string }

type secretEntry struct {
	hash [RedactHashLen]byte
	desc string
}

// maxSecrets bounds a generation of the secret table.
const maxSecrets = 1 << 14

// secretLens has bit len%64 set for the length of every known secret:
// the only thing encoding a string reads while no secret is known, and
// most strings of other lengths skip the table's lookup.
var secretLens atomic.Uint64

// replayMode: this process replays; values are not hashed (there is no
// key), only stand-ins are recognised.
var replayMode atomic.Bool

// SetReplayRedaction switches redaction to replay's behaviour: a marked
// value is redacted only if it is a stand-in the player handed out (its
// hash is the recorded one); any other value is written as it is, so it
// differs from the recorded hash.
func SetReplayRedaction() { replayMode.Store(true) }

var redactKey = sync.OnceValue(func() []byte {
	if k := os.Getenv(EnvRedactKey); k != "" {
		return []byte(k)
	}
	k := make([]byte, 32)
	rand.Read(k)
	return k
})

// RedactHash is the hash of a secret under key.
func RedactHash(key []byte, secret string) (h [RedactHashLen]byte) {
	m := hmac.New(sha256.New, key)
	m.Write(unsafe.Slice(unsafe.StringData(secret), len(secret)))
	copy(h[:], m.Sum(nil))
	return h
}

// keyedHashes holds HMACs keyed with redactKey, reset for reuse: a new
// one hashes the key's two pads again and allocates both states.
var keyedHashes = sync.Pool{New: func() any { return hmac.New(sha256.New, redactKey()) }}

// keyedHash is RedactHash(redactKey(), s).
func keyedHash(s string) (h [RedactHashLen]byte) {
	m := keyedHashes.Get().(hash.Hash)
	m.Reset()
	m.Write(unsafe.Slice(unsafe.StringData(s), len(s)))
	var sum [sha256.Size]byte
	copy(h[:], m.Sum(sum[:0]))
	keyedHashes.Put(m)
	return h
}

func lookupSecret(s string) *secretEntry {
	secrets.mu.RLock()
	en := secrets.cur[s]
	if en == nil {
		en = secrets.old[s]
	}
	secrets.mu.RUnlock()
	return en
}

func addSecretLocked(s string, en *secretEntry) {
	if len(secrets.cur) >= maxSecrets {
		secrets.old, secrets.cur = secrets.cur, nil
	}
	if secrets.cur == nil {
		secrets.cur = map[string]*secretEntry{}
	}
	secrets.cur[strings.Clone(s)] = en
	for {
		m := secretLens.Load()
		if secretLens.CompareAndSwap(m, m|1<<(len(s)&63)) {
			return
		}
	}
}

// rememberSecret returns the entry of secret s, made (hashed) if new.
func rememberSecret(s, desc string) *secretEntry {
	if en := lookupSecret(s); en != nil {
		return en
	}
	h := keyedHash(s)
	secrets.mu.Lock()
	defer secrets.mu.Unlock()
	if en := secrets.cur[s]; en != nil {
		return en
	}
	en := &secretEntry{hash: h, desc: desc}
	addSecretLocked(s, en)
	return en
}

// known returns the entry of s if s is a known secret (or stand-in).
func known(s string) *secretEntry {
	if len(s) == 0 {
		return nil
	}
	if m := secretLens.Load(); m == 0 || m>>(len(s)&63)&1 == 0 {
		return nil
	}
	return lookupSecret(s)
}

func (e *Encoder) appendRedacted(en *secretEntry) {
	e.Buf = append(e.Buf, TagRedacted)
	e.Buf = append(e.Buf, en.hash[:]...)
}

// String appends a string: redacted if it is a known secret.
func (e *Encoder) String(s string) {
	if en := known(s); en != nil {
		e.appendRedacted(en)
		return
	}
	e.Buf = AppendString(e.Buf, s)
}

// Bytes appends a byte slice: redacted if its content is a known secret.
func (e *Encoder) Bytes(b []byte) {
	if len(b) > 0 {
		if en := known(unsafe.String(unsafe.SliceData(b), len(b))); en != nil {
			e.appendRedacted(en)
			return
		}
	}
	e.Buf = AppendBytes(e.Buf, b)
}

// Secret appends s, a value marked secret (desc says where: "field
// Password of example.com/auth.Login"), as its hash. An empty string
// carries no secret and is written as it is, as in replay.
func (e *Encoder) Secret(s, desc string) {
	if s == "" || replayMode.Load() {
		e.String(s)
		return
	}
	e.appendRedacted(rememberSecret(s, desc))
}

// SecretBytes is Secret for a byte slice (nil and empty slices are
// written as they are).
func (e *Encoder) SecretBytes(b []byte, desc string) {
	if len(b) == 0 || replayMode.Load() {
		e.Bytes(b)
		return
	}
	e.appendRedacted(rememberSecret(string(b), desc))
}

// standInPrefix starts every stand-in; the hash in hex and standInSuffix
// follow. Unlikely in real data, and visible where it ends up in a
// rendered value.
const (
	standInPrefix = "\u27e6redacted:"
	standInSuffix = "\u27e7"
	standInLen    = len(standInPrefix) + 2*RedactHashLen + len(standInSuffix)
)

// StandIn returns the stand-in replay hands observed code for a value
// redacted with hash h.
func StandIn(h [RedactHashLen]byte) string {
	return standInPrefix + hex.EncodeToString(h[:]) + standInSuffix
}

// standIn returns the stand-in of h and makes it known, so that encoding
// it writes h again. desc says where it was received, for RedactionNote.
func standIn(h [RedactHashLen]byte, desc string) string {
	s := StandIn(h)
	secrets.mu.Lock()
	if secrets.cur[s] == nil && secrets.old[s] == nil {
		addSecretLocked(s, &secretEntry{hash: h, desc: desc})
	}
	if desc == "" {
		desc = "a redacted value"
	}
	dl := delivery{hex.EncodeToString(h[:]), desc}
	if len(secrets.delivered) == 0 || secrets.delivered[0] != dl {
		secrets.delivered = append([]delivery{dl}, secrets.delivered[:min(len(secrets.delivered), 7)]...)
	}
	secrets.mu.Unlock()
	return s
}

// decodeRedacted reads the hash after TagRedacted (the tag read).
func (d *Decoder) decodeRedacted() (h [RedactHashLen]byte) {
	copy(h[:], d.raw(RedactHashLen))
	return h
}

// RedactionNote explains a divergence of a replay in which observed code
// received redacted values; actual is the rendering of the values the
// replayed code produced. Empty if no stand-in was handed out.
func RedactionNote(actual string) string {
	secrets.mu.RLock()
	delivered := append([]delivery(nil), secrets.delivered...)
	secrets.mu.RUnlock()
	if len(delivered) == 0 {
		return ""
	}
	const why = "replay cannot check code that computes on secrets; move the code that does into an unobserved package (its calls are recorded), or stop marking the value secret (docs/redaction.md)"
	lower := strings.ToLower(actual)
	if strings.Contains(lower, "\u27e6") || strings.Contains(lower, "redacted:") {
		// Part of a stand-in, or a stand-in changed, reached the boundary:
		// name the one whose hash it shows, else the latest.
		desc := delivered[0].desc
		for _, dl := range delivered {
			if strings.Contains(lower, dl.hex[:8]) {
				desc = dl.desc
				break
			}
		}
		return "observed code used the content of a redacted value (" + desc + "): " + why
	}
	var descs []string
	for _, dl := range delivered {
		if !containsString(descs, dl.desc) && len(descs) < 3 {
			descs = append(descs, dl.desc)
		}
	}
	return "observed code may have used the content of a redacted value it received (" + strings.Join(descs, ", ") + "): " + why
}

// ResetRedaction forgets every known secret and stand-in (tests).
func ResetRedaction() {
	secrets.mu.Lock()
	secrets.cur, secrets.old, secrets.delivered = nil, nil, nil
	secretLens.Store(0)
	secrets.mu.Unlock()
	replayMode.Store(false)
}
