package probe

import (
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// Values observed code reflects over (docs/design/reflection.md): in a
// package that reflects over values from outside the observed set,
// reflection runs natively in the capture and in replay, so replay must
// hand the code the same value, with its real dynamic type and the state it
// had, not a placeholder. The transform records the parameters of the
// package's incalls that can carry such a value (an empty interface, a type
// parameter, a pointer to another package's type, and slices, arrays and
// maps of those) with EncodeReflected, and what the call may have written
// through them with Written.

// SentinelVar registers an exported variable of a package the reflecting package
// imports (http.NoBody): a value of an unexported type that objects it
// records can hold, recorded by the variable's name and replayed as the
// variable's value (value.RegisterSentinelValue, which keeps only values
// replay could not otherwise rebuild).
func SentinelVar(name string, v any) struct{} {
	value.RegisterSentinelValue(name, v)
	return struct{}{}
}

// EncodeReflected appends v deeply: a pointer to another package's type is
// written with its pointee, at every sight (the state external code gave
// it since it last crossed), so that replay rebuilds the object it
// reflects over. Pointers to observed objects keep their first-sight rule.
func EncodeReflected[T any](s *Stream, v T) {
	if shallowObservedStruct[T]() {
		Encode(s, v)
		return
	}
	s.enc.Objects = s.objectTable()
	s.enc.Deep, s.enc.Refresh = true, true
	value.Encode(&s.enc, v)
	s.enc.Deep, s.enc.Refresh = false, false
	s.enc.ResetRefresh()
	markRebuilt(any(v))
}

// Written appends, after an incall, the value of a parameter recorded with
// EncodeReflected when the call could have written through it (its dynamic
// value is a non-nil pointer, map or slice: a decoder setting fields of the
// caller's struct), else nil. The replayed call appends the same, so replay
// compares what the code wrote with what the capture's code wrote, at the
// RETURN_IN. An error recorded by its message (value.PlainError) is nil
// too, whatever its kind: replay's stand-in for it is a pointer, where the
// capture's may have been a struct (cast's ToString given a test file's
// `fu{val: "bar"}`; TestWrittenPlainErrorIsNil).
func Written[T any](s *Stream, v T) {
	if shallowObservedStruct[T]() {
		return
	}
	if err, ok := any(v).(error); ok && !writtenPlainErrorsByKind() && value.PlainError(err) {
		s.enc.Buf = append(s.enc.Buf, value.TagNil)
		return
	}
	rv := reflect.ValueOf(any(v))
	if r, ok := any(v).(reflect.Value); ok {
		// A reflect.Value parameter: what it refers to, when the call
		// could have written there (an addressable value, or a pointer,
		// map or slice).
		if r.CanAddr() {
			EncodeReflected(s, v)
			return
		}
		rv = r
	}
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice:
		if !rv.IsNil() {
			EncodeReflected(s, v)
			return
		}
	}
	s.enc.Buf = append(s.enc.Buf, value.TagNil)
}

// LastWrittenPlainErrorFormat is the last log format version whose
// RETURN_IN holds, after an incall, a parameter's error recorded by its
// message by the kind of its dynamic value (a pointer's re-encoded, a
// struct's nil); replay of such a log writes it so too.
const LastWrittenPlainErrorFormat = 9

func writtenPlainErrorsByKind() bool {
	return play != nil && play.format <= LastWrittenPlainErrorFormat
}

// LastShallowObservedStructFormat is the last log format version that
// records an incall parameter reflected over only through a struct of an
// observed type (mapstructure's *DecoderConfig, whose Result field holds
// the caller's target) as any other parameter: not deeply, with nothing
// after the call. Replay of such a log encodes it so too.
const LastShallowObservedStructFormat = 9

// shallowObservedStruct reports whether replay of the log at hand encodes
// a reflected parameter of type T as a log of
// LastShallowObservedStructFormat or before holds it: T is reflected over
// only through an observed struct type, which those logs did not count.
func shallowObservedStruct[T any]() bool {
	if play == nil || play.format > LastShallowObservedStructFormat {
		return false
	}
	return !reflectedBeforeObservedStructs(reflect.TypeFor[T](), map[reflect.Type]bool{})
}

// reflectedBeforeObservedStructs reports whether an incall parameter of
// type t was recorded with EncodeReflected by builds that wrote logs of
// LastShallowObservedStructFormat: a type reaching an empty interface, a
// reflect.Value or a pointer to another package's named type through
// pointers, slices, arrays and maps, never through an observed type.
func reflectedBeforeObservedStructs(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	if t == reflect.TypeFor[reflect.Value]() {
		return true
	}
	if t.Name() != "" && value.IsObservedType(t) {
		return false
	}
	switch t.Kind() {
	case reflect.Interface:
		return t.NumMethod() == 0
	case reflect.Pointer:
		el := t.Elem()
		if el.Name() != "" && el.PkgPath() != "" && el.Kind() != reflect.Interface && !value.IsObservedType(el) {
			return true
		}
		return reflectedBeforeObservedStructs(el, seen)
	case reflect.Slice, reflect.Array:
		return reflectedBeforeObservedStructs(t.Elem(), seen)
	case reflect.Map:
		return reflectedBeforeObservedStructs(t.Key(), seen) || reflectedBeforeObservedStructs(t.Elem(), seen)
	}
	return false
}

// DecodeReflected reads, in replay, an incall argument that the capture
// recorded with EncodeReflected. Observed code reflects over it natively,
// so a value whose dynamic type this build cannot rebuild (a stand-in took
// its place) would make the replayed code walk another value than the
// capture's: it would diverge on unchanged code. The replay ends there
// instead, with its own outcome: the log names a value replay cannot
// rebuild, which is a limit of replay, not a change of the code.
//
// A dynamic type that is not registered (an unexported type of another
// package: pflag's *flag.Flag holds a *flag.stringValue) is rebuilt as
// itself when the replay binary links it (value.LinkedType).
func DecodeReflected[T any](s *Stream) T {
	s.dec.Unbuilt = ""
	s.dec.Linked, s.dec.NilUnbuilt = true, true
	v := Decode[T](s)
	s.dec.Linked, s.dec.NilUnbuilt = false, false
	if s.dec.Unbuilt != "" && s.dec.Err == nil && replaying && play != nil {
		play.cannotRebuild(s, s.dec.Unbuilt)
	}
	return v
}

// UnrebuiltPrefix starts the note of a replay that ended at a reflected
// value it cannot rebuild (the report's verdict is "error").
const UnrebuiltPrefix = "reflected value of type "

// cannotRebuild ends the replay at the incall whose reflected argument has
// a dynamic type this build does not know (DecodeReflected): the verdict is
// "error", with a note naming the type, why replay cannot name it, and the
// incall.
func (p *player) cannotRebuild(s *Stream, name string) {
	p.mu.Lock()
	if p.done {
		p.mu.Unlock()
		panic(abortReplay{})
	}
	at := ""
	if sr := s.replay; sr != nil && sr.cur < sr.total {
		if _, e := p.at(sr, sr.cur); e.Kind == eventlog.KindCallIn {
			at = fmt.Sprintf(", an argument of %s at seq %d (stream %d)", e.Site, e.Seq, e.Stream)
		}
	}
	if at == "" && s.site != nil {
		at = ", an argument of " + s.site.Name
	}
	note := fmt.Sprintf("%s%s cannot be rebuilt in replay (%s)%s: observed code would reflect natively over a stand-in, so the log is not replayed (docs/design/reflection.md)",
		UnrebuiltPrefix, name, UnrebuiltWhy(name), at)
	p.report.Verdict = "error"
	p.report.Notes = append(p.report.Notes, note)
	p.report.Replayed = p.replayed
	p.finishLocked()
	r := p.report
	r.Notes = append([]string(nil), p.report.Notes...)
	p.mu.Unlock()
	p.cond.Broadcast()
	if p.exits {
		writeReport(&r)
		os.Exit(3)
	}
	panic(abortReplay{})
}

// declaredWhere holds what the replay harness knows of types it cannot
// link, by the name a log gives them: where they are declared
// (DeclaredWhere).
var declaredWhere sync.Map // type name -> string

// DeclaredWhere tells replay where a type it cannot link is declared ("inside
// a function (decode_test.go:327)", "in a _test.go file"): the harness
// generator finds it in the sources, and the note of a reflected value of
// that type says it (UnrebuiltWhy).
func DeclaredWhere(name, where string) struct{} {
	declaredWhere.Store(name, where)
	return struct{}{}
}

// UnrebuiltWhy says why replay cannot rebuild a value of dynamic type
// name: the first type it is made of that this build cannot name, and
// where that one is declared, as far as replay knows.
func UnrebuiltWhy(name string) string {
	if strings.Contains(name, "struct {") || strings.Contains(name, "func(") || strings.Contains(name, "chan ") {
		why := "a type literal without a name (struct, func or chan) that replay cannot make"
		if w := value.UnmadeWhy(name); w != "" {
			why += ": " + w
		}
		for _, part := range typeNameParts(name) {
			if w, ok := declaredWhere.Load(part); ok {
				return why + "; " + part + " is declared " + w.(string)
			}
		}
		return why
	}
	for _, part := range typeNameParts(name) {
		if _, ok := value.LookupType(part); ok {
			continue
		}
		if w, ok := declaredWhere.Load(part); ok {
			return part + " is declared " + w.(string)
		}
		dot := strings.LastIndexByte(part, '.')
		if dot < 0 {
			continue
		}
		switch pkg := part[:dot]; {
		case pkg == "main":
			return part + " is declared in package main, which replay does not link"
		case strings.HasSuffix(pkg, "_test"):
			return part + " is declared in an external test package (a _test.go file), which replay does not link"
		case value.IsObservedPackage(pkg):
			return part + " is declared inside a function or in a _test.go file of the observed package: replay links only the package-level types of its non-test files"
		default:
			return part + " is declared in a package the replay build does not contain, inside a function, or in a _test.go file"
		}
	}
	return "its type is not registered in the replay build"
}

// typeNameParts returns the named types a log's type name is made of, in
// order: "map[string][]*example.com/a.T" gives "example.com/a.T" (and
// "string").
func typeNameParts(name string) []string {
	var parts []string
	for _, f := range strings.FieldsFunc(name, func(r rune) bool {
		return strings.ContainsRune("*[]{}(); ,", r)
	}) {
		if f == "map" || f == "interface" || f == "struct" || f == "func" || f == "chan" {
			continue
		}
		if _, err := strconv.Atoi(f); err == nil {
			continue // an array's length
		}
		parts = append(parts, value.PlainName(f))
	}
	return parts
}
