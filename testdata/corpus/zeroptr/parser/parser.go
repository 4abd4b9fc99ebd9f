// Package parser is shaped like goldmark's parser: its block parsers and
// its options are empty structs, allocated with &listParser{} and
// &Options{}. Go gives every zero-size allocation one address
// (runtime.zerobase), so distinct objects of distinct types share it.
package parser

import (
	"strings"

	"example.com/zeroptr/util"
)

// A BlockParser parses lines that start with its trigger.
type BlockParser interface {
	Trigger() byte
	Parse(line string) string
}

type listParser struct{}

func (*listParser) Trigger() byte            { return '-' }
func (*listParser) Parse(line string) string { return "<li>" + strings.TrimSpace(line[1:]) + "</li>" }

type headingParser struct{}

func (*headingParser) Trigger() byte { return '#' }
func (*headingParser) Parse(line string) string {
	return "<h1>" + strings.TrimSpace(line[1:]) + "</h1>"
}

type quoteParser struct{}

func (*quoteParser) Trigger() byte            { return '>' }
func (*quoteParser) Parse(line string) string { return "<q>" + strings.TrimSpace(line[1:]) + "</q>" }

// NewListParser returns a parser of list items.
func NewListParser() BlockParser { return &listParser{} }

// NewHeadingParser returns a parser of headings.
func NewHeadingParser() BlockParser { return &headingParser{} }

// NewQuoteParser returns a parser of quotes.
func NewQuoteParser() BlockParser { return &quoteParser{} }

// DefaultBlockParsers returns the block parsers with their priorities
// (each passes through util.Prioritized, an outcall).
func DefaultBlockParsers() []util.PrioritizedValue {
	return []util.PrioritizedValue{
		util.Prioritized(NewListParser(), 300),
		util.Prioritized(NewHeadingParser(), 100),
		util.Prioritized(NewQuoteParser(), 200),
	}
}

// Options are a parser's options; none are set yet.
type Options struct{}

// NewOptions returns empty options.
func NewOptions() *Options { return &Options{} }

// A Parser turns lines into HTML with its block parsers.
type Parser struct {
	opts    *Options
	ctx     *util.Context
	parsers []BlockParser
}

// NewParser returns a parser with the given block parsers, tried in order
// of priority.
func NewParser(opts *Options, ps ...util.PrioritizedValue) *Parser {
	if opts == nil {
		opts = NewOptions()
	}
	util.Sort(ps)
	p := &Parser{opts: opts, ctx: util.NewContext()}
	for _, v := range ps {
		p.parsers = append(p.parsers, v.Value.(BlockParser))
	}
	return p
}

// Add adds a block parser tried before the others.
func (p *Parser) Add(bp BlockParser) {
	p.parsers = append([]BlockParser{bp}, p.parsers...)
}

// Context returns the name of the parser's context.
func (p *Parser) Context() string { return p.ctx.Name() }

// Options returns the parser's options.
func (p *Parser) Options() *Options { return p.opts }

// Parse converts each line.
func (p *Parser) Parse(text string) string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		html := "<p>" + line + "</p>"
		for _, bp := range p.parsers {
			if line != "" && line[0] == bp.Trigger() {
				html = bp.Parse(line)
				break
			}
		}
		out = append(out, html)
	}
	return strings.Join(out, "\n")
}
