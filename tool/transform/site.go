package transform

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/mod/module"
)

// Site names come from event logs, and a log is a file anyone may hand to
// replay: nothing in it is trusted. The replay harness must name the
// generic instantiations its logs call (HarnessInstances), so it builds Go
// source from their sites; that source is made from the structure below,
// which only a closed grammar of what value.TypeName and probe.Instance
// write can produce, never from the text of the log.

// InstanceSite is the site of a generic incall, parsed:
// "example.com/gen.Map[int,string]" is the function Map of package
// example.com/gen with the type arguments int and string,
// "(*example.com/gen.Stack[int]).Push" the method Push of Stack[int].
type InstanceSite struct {
	Pkg     string     // import path of the package that declares it
	Recv    string     // the generic type of a method; "" for a function
	PtrRecv bool       // the method's receiver is a pointer
	Name    string     // the function or method
	Args    []*TypeArg // the type arguments (of the function or the receiver)
}

// TypeKind says which form of type a TypeArg is.
type TypeKind int

const (
	KindNamed          TypeKind = iota // Pkg.Name, or a predeclared Name
	KindPointer                        // *Elem
	KindSlice                          // []Elem
	KindArray                          // [Len]Elem
	KindMap                            // map[Key]Elem
	KindChan                           // chan Elem, in direction Dir
	KindEmptyStruct                    // struct {}
	KindEmptyInterface                 // interface {}
	KindLiteral                        // any other struct, interface or func type, or an instantiated generic type: no harness can name it
)

// TypeArg is a type as logs spell it (value.TypeName: full import paths).
type TypeArg struct {
	Kind TypeKind
	Pkg  string   // KindNamed: import path, "" for a predeclared type
	Name string   // KindNamed: identifier
	Len  int64    // KindArray
	Key  *TypeArg // KindMap
	Elem *TypeArg // KindPointer, KindSlice, KindArray, KindMap, KindChan
	Dir  ast.ChanDir
	Text string // KindLiteral: its spelling, only ever quoted in messages
	// Fingerprint (KindNamed) is the hex digits after the middle dot of
	// a name the capture's binary shares between types that reflection
	// tells apart ("example.com/m.simple·5c0e…", value.TypeName): a type
	// declared inside a function, or one of several of that name.
	Fingerprint string
}

// SiteError says that a site of a log is outside the grammar of site names:
// no capture writes it, so the log is corrupt or was made to attack replay.
// Replay builds nothing from such a log.
type SiteError struct {
	Site   string
	Reason string
}

func (e *SiteError) Error() string {
	return fmt.Sprintf("site %q: %s; the log may be corrupt or hostile; replay does not build code from it", e.Site, e.Reason)
}

// Limits a real site stays far below; they keep a hostile one from making
// the parser (or the compiler, later) work without bound.
const (
	maxSiteLen   = 16 << 10
	maxTypeDepth = 64
	maxArrayLen  = math.MaxInt32
)

// IsInstanceSite reports whether site, the site of a CALL_IN, names a generic
// instantiation that a replay harness must instantiate: a callback's site
// (probe.CallbackPrefix) names its function, not a site to instantiate, and
// a site without type arguments is not generic.
func IsInstanceSite(site string) bool {
	return strings.Contains(site, "[") && !strings.HasPrefix(site, "callback ")
}

// CheckIncallSite returns a *SiteError if site, the site of a CALL_IN of a
// log, is a generic instantiation's (IsInstanceSite) outside the grammar.
func CheckIncallSite(site string) error {
	if !IsInstanceSite(site) {
		return nil // never part of generated source
	}
	_, err := ParseInstanceSite(site)
	return err
}

// ParseInstanceSite parses the site of a generic incall as probe.Instance
// names it. Identifiers must be Go identifiers (not keywords), import paths
// valid import paths (module.CheckImportPath), array lengths decimal, and
// the site must be spelled exactly as a capture spells it, so that
// String returns site. Any other text is a *SiteError.
func ParseInstanceSite(site string) (*InstanceSite, error) {
	p := &siteParser{site: site, s: site}
	s, err := p.instanceSite()
	if err != nil {
		return nil, &SiteError{Site: site, Reason: err.Error()}
	}
	return s, nil
}

type siteParser struct {
	site  string // the whole site, for nothing but messages
	s     string // what is left of it
	depth int
}

func (p *siteParser) instanceSite() (*InstanceSite, error) {
	if len(p.s) > maxSiteLen {
		return nil, fmt.Errorf("longer than %d bytes", maxSiteLen)
	}
	if !utf8.ValidString(p.s) {
		return nil, fmt.Errorf("not valid UTF-8")
	}
	var out InstanceSite
	method := strings.HasPrefix(p.s, "(")
	if method {
		p.s = p.s[1:]
		if strings.HasPrefix(p.s, "*") {
			out.PtrRecv = true
			p.s = p.s[1:]
		}
	}
	pkg, name, err := p.qualified()
	if err != nil {
		return nil, err
	}
	if pkg == "" {
		return nil, fmt.Errorf("no package path before %q", name)
	}
	if !strings.HasPrefix(p.s, "[") {
		return nil, fmt.Errorf("no type arguments after %s.%s", pkg, name)
	}
	p.s = p.s[1:]
	args, err := p.typeList()
	if err != nil {
		return nil, err
	}
	out.Pkg, out.Args = pkg, args
	if method {
		if !strings.HasPrefix(p.s, ").") {
			return nil, fmt.Errorf("want \").\" and a method name after the receiver, have %q", p.s)
		}
		m := p.s[2:]
		if err := checkIdent(m); err != nil {
			return nil, err
		}
		out.Recv, out.Name = name, m
		return &out, nil
	}
	if p.s != "" {
		return nil, fmt.Errorf("unexpected text after the type arguments: %q", p.s)
	}
	out.Name = name
	return &out, nil
}

// typeList parses types separated by commas up to the closing bracket,
// which it consumes.
func (p *siteParser) typeList() ([]*TypeArg, error) {
	var list []*TypeArg
	for {
		t, err := p.typ()
		if err != nil {
			return nil, err
		}
		list = append(list, t)
		switch {
		case strings.HasPrefix(p.s, ","):
			p.s = p.s[1:]
		case strings.HasPrefix(p.s, "]"):
			p.s = p.s[1:]
			return list, nil
		default:
			return nil, fmt.Errorf("want \",\" or \"]\" after type %s, have %q", t, p.s)
		}
	}
}

func (p *siteParser) typ() (*TypeArg, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxTypeDepth {
		return nil, fmt.Errorf("types nested more than %d deep", maxTypeDepth)
	}
	elem := func(t *TypeArg, prefix string) (*TypeArg, error) {
		p.s = p.s[len(prefix):]
		e, err := p.typ()
		if err != nil {
			return nil, err
		}
		t.Elem = e
		return t, nil
	}
	s := p.s
	switch {
	case strings.HasPrefix(s, "*"):
		return elem(&TypeArg{Kind: KindPointer}, "*")
	case strings.HasPrefix(s, "[]"):
		return elem(&TypeArg{Kind: KindSlice}, "[]")
	case strings.HasPrefix(s, "["):
		j := strings.IndexByte(s, ']')
		if j < 0 {
			return nil, fmt.Errorf("unterminated array length in %q", s)
		}
		n, err := arrayLen(s[1:j])
		if err != nil {
			return nil, err
		}
		return elem(&TypeArg{Kind: KindArray, Len: n}, s[:j+1])
	case strings.HasPrefix(s, "map["):
		p.s = s[len("map["):]
		k, err := p.typ()
		if err != nil {
			return nil, err
		}
		if !strings.HasPrefix(p.s, "]") {
			return nil, fmt.Errorf("want \"]\" after the key type %s, have %q", k, p.s)
		}
		return elem(&TypeArg{Kind: KindMap, Key: k}, "]")
	case strings.HasPrefix(s, "chan<- "):
		return elem(&TypeArg{Kind: KindChan, Dir: ast.SEND}, "chan<- ")
	case strings.HasPrefix(s, "<-chan "):
		return elem(&TypeArg{Kind: KindChan, Dir: ast.RECV}, "<-chan ")
	case strings.HasPrefix(s, "chan "):
		return elem(&TypeArg{Kind: KindChan, Dir: ast.SEND | ast.RECV}, "chan ")
	case strings.HasPrefix(s, "struct {}"):
		p.s = s[len("struct {}"):]
		return &TypeArg{Kind: KindEmptyStruct}, nil
	case strings.HasPrefix(s, "interface {}"):
		p.s = s[len("interface {}"):]
		return &TypeArg{Kind: KindEmptyInterface}, nil
	case strings.HasPrefix(s, "struct {"), strings.HasPrefix(s, "interface {"), strings.HasPrefix(s, "func("):
		return p.literal()
	}
	pkg, name, err := p.qualified()
	if err != nil {
		return nil, err
	}
	if strings.HasPrefix(p.s, "[") {
		// An instantiated generic type: reflect spells its type arguments
		// its own way (a local type as "main.local·1"), and no harness can
		// name it, so it is only delimited.
		n, err := balanced(p.s)
		if err != nil {
			return nil, err
		}
		text := s[:len(s)-len(p.s)+n]
		if err := printable(text); err != nil {
			return nil, err
		}
		p.s = p.s[n:]
		return &TypeArg{Kind: KindLiteral, Text: text}, nil
	}
	t := &TypeArg{Kind: KindNamed, Pkg: pkg, Name: name}
	if strings.HasPrefix(p.s, fingerprintSep) {
		fp, err := p.fingerprint()
		if err != nil {
			return nil, err
		}
		if pkg == "" {
			return nil, fmt.Errorf("a predeclared type %s with a fingerprint", name)
		}
		t.Fingerprint = fp
	}
	return t, nil
}

// fingerprintSep and fingerprintLen are how value.TypeName appends the
// fingerprint of a type's structure to a name that several types of the
// capture's binary share: a middle dot and 16 lower-case hex digits.
const (
	fingerprintSep = "·"
	fingerprintLen = 16
)

// fingerprint consumes the middle dot and the fingerprint after a type
// name.
func (p *siteParser) fingerprint() (string, error) {
	rest := p.s[len(fingerprintSep):]
	n := 0
	for n < len(rest) && strings.IndexByte("0123456789abcdef", rest[n]) >= 0 {
		n++
	}
	if n != fingerprintLen {
		return "", fmt.Errorf("want %d hex digits of a type's fingerprint after %q, have %q", fingerprintLen, fingerprintSep, rest)
	}
	p.s = rest[n:]
	return rest[:n], nil
}

// balanced returns the length of the bracketed text s starts with, up to
// its matching closing bracket, skipping quoted struct tags.
func balanced(s string) (int, error) {
	var open []byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			j, err := quoted(s, i)
			if err != nil {
				return 0, err
			}
			i = j
		case '(', '[', '{':
			open = append(open, c)
		case ')', ']', '}':
			if len(open) == 0 || !closes(open[len(open)-1], c) {
				return 0, fmt.Errorf("unbalanced brackets in type %q", s)
			}
			open = open[:len(open)-1]
			if len(open) == 0 {
				return i + 1, nil
			}
		}
	}
	return 0, fmt.Errorf("unbalanced brackets in type %q", s)
}

// quoted returns the index of the quote that ends the quoted string that
// starts at s[i].
func quoted(s string, i int) (int, error) {
	j := i + 1
	for j < len(s) && s[j] != '"' {
		if s[j] == '\\' {
			j++
		}
		j++
	}
	if j >= len(s) {
		return 0, fmt.Errorf("unterminated string in type %q", s)
	}
	return j, nil
}

// printable rejects the text of a type that holds a control or other
// non-printing character: reflect writes none.
func printable(text string) error {
	for _, r := range text {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("non-printing character %q in type %q", r, text)
		}
	}
	return nil
}

// arrayLen parses an array length as strconv.Itoa writes it.
func arrayLen(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > maxArrayLen || strconv.FormatInt(n, 10) != s {
		return 0, fmt.Errorf("not an array length %q", s)
	}
	return n, nil
}

// literal consumes a struct, interface or func type other than the empty
// ones: no harness can name it, so it is only delimited (to the comma or
// bracket that ends it, outside brackets and quoted struct tags) and kept
// for messages.
func (p *siteParser) literal() (*TypeArg, error) {
	s := p.s
	var open []byte
	i := 0
loop:
	for ; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			j, err := quoted(s, i)
			if err != nil {
				return nil, err
			}
			i = j
		case '(', '[', '{':
			open = append(open, c)
		case ')', ']', '}':
			if len(open) == 0 {
				break loop // the end of the type list
			}
			if !closes(open[len(open)-1], c) {
				return nil, fmt.Errorf("unbalanced brackets in type %q", s)
			}
			open = open[:len(open)-1]
		case ',':
			if len(open) == 0 {
				break loop
			}
		}
	}
	if len(open) != 0 {
		return nil, fmt.Errorf("unbalanced brackets in type %q", s)
	}
	text := s[:i]
	if err := printable(text); err != nil {
		return nil, err
	}
	p.s = s[i:]
	return &TypeArg{Kind: KindLiteral, Text: text}, nil
}

func closes(open, c byte) bool {
	return open == '(' && c == ')' || open == '[' && c == ']' || open == '{' && c == '}'
}

// qualified consumes a possibly qualified identifier, "example.com/p.Name"
// or "int": the identifier follows the last dot.
func (p *siteParser) qualified() (pkg, name string, err error) {
	i := 0
	for i < len(p.s) {
		r, n := utf8.DecodeRuneInString(p.s[i:])
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("_./-~+", r)) {
			break
		}
		i += n
	}
	word := p.s[:i]
	if word == "" {
		return "", "", fmt.Errorf("want a type name, have %q", p.s)
	}
	p.s = p.s[i:]
	if dot := strings.LastIndexByte(word, '.'); dot >= 0 {
		pkg, name = word[:dot], word[dot+1:]
		if err := module.CheckImportPath(pkg); err != nil {
			return "", "", fmt.Errorf("not a valid import path %q", pkg)
		}
	} else {
		name = word
	}
	if err := checkIdent(name); err != nil {
		return "", "", err
	}
	return pkg, name, nil
}

func checkIdent(s string) error {
	if !token.IsIdentifier(s) {
		return fmt.Errorf("not a Go identifier %q", s)
	}
	return nil
}

// String spells the site as logs do: ParseInstanceSite(s.String()) is s.
func (s *InstanceSite) String() string {
	if s.Recv == "" {
		return s.Pkg + "." + siteArgs(s.Args, s.Name)
	}
	named := s.Pkg + "." + siteArgs(s.Args, s.Recv)
	star := ""
	if s.PtrRecv {
		star = "*"
	}
	return "(" + star + named + ")." + s.Name
}

func siteArgs(args []*TypeArg, name string) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.String()
	}
	return name + "[" + strings.Join(parts, ",") + "]"
}

// String spells the type as logs do (value.TypeName).
func (t *TypeArg) String() string {
	switch t.Kind {
	case KindNamed:
		if t.Pkg == "" {
			return t.Name
		}
		if t.Fingerprint != "" {
			return t.Pkg + "." + t.Name + fingerprintSep + t.Fingerprint
		}
		return t.Pkg + "." + t.Name
	case KindPointer:
		return "*" + t.Elem.String()
	case KindSlice:
		return "[]" + t.Elem.String()
	case KindArray:
		return "[" + strconv.FormatInt(t.Len, 10) + "]" + t.Elem.String()
	case KindMap:
		return "map[" + t.Key.String() + "]" + t.Elem.String()
	case KindChan:
		switch t.Dir {
		case ast.SEND:
			return "chan<- " + t.Elem.String()
		case ast.RECV:
			return "<-chan " + t.Elem.String()
		}
		return "chan " + t.Elem.String()
	case KindEmptyStruct:
		return "struct {}"
	case KindEmptyInterface:
		return "interface {}"
	}
	return t.Text
}

// nameable returns why the replay harness at import path from cannot name
// t (nil if it can): only types that any package may import by path.
func (t *TypeArg) nameable(from string) error {
	switch t.Kind {
	case KindNamed:
		switch {
		case t.Pkg == "":
			if _, ok := types.Universe.Lookup(t.Name).(*types.TypeName); !ok || t.Name == "comparable" {
				return fmt.Errorf("unknown type %s", t.Name)
			}
			return nil
		case t.Fingerprint != "":
			return fmt.Errorf("type argument %s is a type declared inside a function, or one of several types of that name in the capture's binary (its name carries a fingerprint of its structure): no source outside that function can name it; declare it at package level, exported, in a package of its own", t)
		case t.Pkg == "main":
			return fmt.Errorf("type argument %s is declared in package main, which no other package can import: declare it in a package of its own", t)
		case !token.IsExported(t.Name):
			return fmt.Errorf("type argument %s is unexported (or declared inside a function): only its package can name it", t)
		case t.Pkg == "C" || t.Pkg == "vendor" || strings.HasPrefix(t.Pkg, "vendor/") || strings.Contains(t.Pkg, "/vendor/"):
			return fmt.Errorf("type argument %s is of a package no Go source imports by that path", t)
		case !importable(from, t.Pkg):
			return fmt.Errorf("type argument %s is in an internal package the replay harness cannot import", t)
		}
		return nil
	case KindPointer, KindSlice, KindArray, KindChan:
		return t.Elem.nameable(from)
	case KindMap:
		if err := t.Key.nameable(from); err != nil {
			return err
		}
		return t.Elem.nameable(from)
	case KindEmptyStruct, KindEmptyInterface:
		return nil
	}
	return fmt.Errorf("type argument %s cannot be named by the replay harness (literal or generic types are not supported as type arguments)", t)
}

// packages adds the import paths of the named types in t to paths.
func (t *TypeArg) packages(paths map[string]bool) {
	if t == nil {
		return
	}
	if t.Kind == KindNamed && t.Pkg != "" {
		paths[t.Pkg] = true
	}
	t.Key.packages(paths)
	t.Elem.packages(paths)
}

// expr is t as a Go type expression, its packages named by alias.
func (t *TypeArg) expr(alias func(path string) string) ast.Expr {
	switch t.Kind {
	case KindNamed:
		if t.Pkg == "" {
			return ast.NewIdent(t.Name)
		}
		return &ast.SelectorExpr{X: ast.NewIdent(alias(t.Pkg)), Sel: ast.NewIdent(t.Name)}
	case KindPointer:
		return &ast.StarExpr{X: t.Elem.expr(alias)}
	case KindSlice:
		return &ast.ArrayType{Elt: t.Elem.expr(alias)}
	case KindArray:
		return &ast.ArrayType{Len: &ast.BasicLit{Kind: token.INT, Value: strconv.FormatInt(t.Len, 10)}, Elt: t.Elem.expr(alias)}
	case KindMap:
		return &ast.MapType{Key: t.Key.expr(alias), Value: t.Elem.expr(alias)}
	case KindChan:
		var e ast.Expr = t.Elem.expr(alias)
		if t.Dir == ast.SEND|ast.RECV && t.Elem.Kind == KindChan && t.Elem.Dir == ast.RECV {
			// "chan <-chan T" is chan<- (chan T) in Go.
			e = &ast.ParenExpr{X: e}
		}
		return &ast.ChanType{Dir: t.Dir, Value: e}
	case KindEmptyStruct:
		// Valid positions on one line make the printer write "struct{}".
		return &ast.StructType{Fields: &ast.FieldList{Opening: 1, Closing: 1}}
	case KindEmptyInterface:
		return ast.NewIdent("any")
	}
	panic("transform: a literal type has no expression") // nameable rejects it first
}
