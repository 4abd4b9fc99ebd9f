// Package ext makes values for roles of its own unexported types.
package ext

import "example.com/anycombo/roles"

type upper struct{ opt string }

func (u *upper) Parse(s string) string { return u.opt + ":" + s }
func (u *upper) SetOption(name string) { u.opt = name }
func (u *upper) Close()                {}

// Upper is a parser that takes options.
func Upper() roles.Prioritized { return roles.Prioritized{Value: &upper{}, Priority: 100} }

type trim struct{}

func (trim) Trim(s string) string { return s[:1] }

// First is a trimmer that takes no options.
func First() roles.Prioritized { return roles.Prioritized{Value: trim{}, Priority: 50} }
