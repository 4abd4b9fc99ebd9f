// Package anycombo keeps values of any type with a priority (goldmark's
// util.PrioritizedValue) and asks each what it is: more than four interface
// types are asserted in the package, and one value is two of them (a
// parser that is also a SetOptioner). The values come from another package,
// of unexported types replay cannot name, so replay stands in with a
// placeholder that must implement both.
package anycombo

import "strings"

// Prioritized is a value with a priority.
type Prioritized struct {
	Value    any
	Priority int
}

// Roles a value may have.
type (
	Parser      interface{ Parse(s string) string }
	Optioner    interface{ SetOption(name string) }
	Closer      interface{ Close() }
	Renderer    interface{ Render() string }
	Trimmer     interface{ Trim(s string) string }
	Transformer interface{ Transform(s string) string }
)

// Run sets option on every value that takes options, then parses s with
// every parser, in order.
func Run(s, option string, vs ...Prioritized) string {
	var out []string
	for _, v := range vs {
		if o, ok := v.Value.(Optioner); ok {
			o.SetOption(option)
		}
		switch p := v.Value.(type) {
		case Parser:
			out = append(out, p.Parse(s))
		case Renderer:
			out = append(out, p.Render())
		case Trimmer:
			out = append(out, p.Trim(s))
		case Transformer:
			out = append(out, p.Transform(s))
		}
		if c, ok := v.Value.(Closer); ok {
			c.Close()
		}
	}
	return strings.Join(out, ",")
}
