// Package router: a router context as chi's middleware uses it. The
// router hands external code (a middleware) its context object, an
// observed struct with exported fields, and the next handler, a closure of
// the set. The middleware writes a field (chi's CleanPath sets
// rctx.RoutePath) and calls the next handler back, which reads the field,
// all during one outcall.
package router

// Context is the routing state of one request.
type Context struct {
	Path string
}

// Middleware may change the context before it calls next.
type Middleware func(c *Context, next func())

// Route runs mw on a context for path and returns the path that the
// handler after it saw.
func Route(mw Middleware, path string) string {
	c := &Context{Path: path}
	var seen string
	mw(c, func() { seen = c.Path })
	return seen
}
