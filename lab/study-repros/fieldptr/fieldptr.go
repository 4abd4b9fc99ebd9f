// Package fieldptr reproduces external code calling a method of an
// observed type on the address of a field that is not the first of an
// observed object that crossed the boundary before: chi's TestSingleHandler
// makes a route context with NewRouteContext and then calls
// rctx.URLParams.Add("name", "joe"), whose receiver points into the
// context, at the URLParams field.
package fieldptr

// Params are a route's parameters.
type Params struct {
	Keys, Values []string
}

// Add appends a parameter.
func (p *Params) Add(key, value string) {
	p.Keys = append(p.Keys, key)
	p.Values = append(p.Values, value)
}

// Context is a request's routing state.
type Context struct {
	Path   string
	Params Params
}

// NewContext returns an empty routing context.
func NewContext() *Context { return &Context{} }

// Param returns the value of the parameter key, or "".
func (c *Context) Param(key string) string {
	for i, k := range c.Params.Keys {
		if k == key {
			return c.Params.Values[i]
		}
	}
	return ""
}
