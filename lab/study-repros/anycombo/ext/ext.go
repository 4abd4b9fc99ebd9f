// Package ext makes values for anycombo of its own unexported types.
package ext

import "example.com/repros/anycombo"

type upper struct{ opt string }

func (u *upper) Parse(s string) string { return u.opt + ":" + s }
func (u *upper) SetOption(name string) { u.opt = name }
func (u *upper) Close()                {}

// Upper is a parser that takes options.
func Upper() anycombo.Prioritized { return anycombo.Prioritized{Value: &upper{}, Priority: 100} }
