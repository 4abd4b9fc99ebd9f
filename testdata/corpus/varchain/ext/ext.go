// Package ext is shaped like goldmark's extension package: package
// variables initialised by a method call on another package's variable,
// and functions making such calls (the transform's edits for the read of
// the variable and for the call met at one offset).
package ext

import "example.com/varchain/html"

// TableAttributeFilter extends the global filter.
var TableAttributeFilter = html.GlobalAttributeFilter.ExtendString(`align,border`) // nolint: lll

// Allowed reports whether a table may have the attribute.
func Allowed(name string) bool { return TableAttributeFilter.Contains([]byte(name)) }

// AllowedGlobal reports whether every element may have the attribute.
func AllowedGlobal(name string) bool {
	return html.GlobalAttributeFilter.Contains([]byte(name))
}

// Names lists the table's attributes.
func Names() string { return TableAttributeFilter.String() }
