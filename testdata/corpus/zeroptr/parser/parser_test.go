package parser_test

import (
	"testing"

	"example.com/zeroptr/parser"
	"example.com/zeroptr/util"
)

const text = "# Title\n- one\n> said\nplain"
const want = "<h1>Title</h1>\n<li>one</li>\n<q>said</q>\n<p>plain</p>"

// Three zero-size block parsers of three types leave the observed set
// through util.Prioritized, come back through util.Sort's slice and are
// called as interface values.
func TestDefault(t *testing.T) {
	p := parser.NewParser(nil, parser.DefaultBlockParsers()...)
	if got := p.Parse(text); got != want {
		t.Fatalf("Parse = %q", got)
	}
}

// The test makes its parsers from the constructors: incall results of
// three types, one address.
func TestConstructors(t *testing.T) {
	l, h, q := parser.NewListParser(), parser.NewHeadingParser(), parser.NewQuoteParser()
	if l.Trigger() != '-' || h.Trigger() != '#' || q.Trigger() != '>' {
		t.Fatal("triggers")
	}
	p := parser.NewParser(parser.NewOptions(),
		util.Prioritized(q, 1), util.Prioritized(l, 3), util.Prioritized(h, 2))
	if got := p.Parse(text); got != want {
		t.Fatalf("Parse = %q", got)
	}
}

// Two empty option structs, two parsers: each parser's Options is its own
// (the spec lets the two pointers be equal or not; nothing here asks).
func TestOptions(t *testing.T) {
	a, b := parser.NewOptions(), parser.NewOptions()
	pa := parser.NewParser(a, util.Prioritized(parser.NewListParser(), 1))
	pb := parser.NewParser(b, util.Prioritized(parser.NewHeadingParser(), 1))
	if pa.Options() == nil || pb.Options() == nil {
		t.Fatal("nil options")
	}
	if pa.Parse("- x") != "<li>x</li>" || pb.Parse("# y") != "<h1>y</h1>" {
		t.Fatal(pa.Parse("- x"), pb.Parse("# y"))
	}
}

// External code makes the first zero-size objects: the test's own
// &parser.Options{} and util's *Context (an outcall's result); the
// observed code's parsers come after them.
func TestExternalFirst(t *testing.T) {
	p := parser.NewParser(&parser.Options{})
	if p.Context() != "ctx" {
		t.Fatal(p.Context())
	}
	p.Add(parser.NewQuoteParser())
	p.Add(parser.NewListParser())
	if got := p.Parse("- a\n> b"); got != "<li>a</li>\n<q>b</q>" {
		t.Fatalf("Parse = %q", got)
	}
}

// util's *Context (an outcall's result, made by external code) is the
// first zero-size object to cross; the parser's own options and block
// parsers cross after it.
func TestContextFirst(t *testing.T) {
	p := parser.NewParser(nil)
	if p.Options() == nil {
		t.Fatal("nil options")
	}
	p.Add(parser.NewHeadingParser())
	if got := p.Parse("# a\nb"); got != "<h1>a</h1>\n<p>b</p>" {
		t.Fatalf("Parse = %q", got)
	}
}
