package transform

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// Channel operations of observed code (docs/design/boundary-model.md, "Channels
// and select"). Every receive, send, range over a channel, close and select
// goes through a helper generated for its site, which at run time operates
// natively on channels that never crossed the boundary and records (capture)
// or answers from the log (replay) the operations on channels that did
// (probe.Chan, probe.Select).

// chanTP returns the type parameter lists for a channel helper whose types
// are typs, when they mention type parameters of the enclosing function.
func (t *transformer) chanTP(stack []ast.Node, typs ...types.Type) (decl, args string, ok bool) {
	for _, typ := range typs {
		if hasTypeParam(typ) {
			decl, args, why := t.typeParams(t.enclosingTypeParams(stack))
			if why != "" || decl == "" {
				return "", "", false
			}
			return decl, args, true
		}
	}
	return "", "", true
}

// chanTypes prints the types of a channel helper (type parameters allowed).
func (t *transformer) chanTypes(pos token.Pos, what string, typs ...types.Type) ([]string, bool) {
	saved := t.allowTP
	t.allowTP = true
	defer func() { t.allowTP = saved }()
	var out []string
	for _, typ := range typs {
		ts, why := t.typeString(typ)
		if why != "" {
			t.errorf(pos, what+" on a channel of "+why, "operate on the channel in an unobserved package")
			return nil, false
		}
		out = append(out, ts)
	}
	return out, true
}

// chanHelper is what every channel-operation helper needs: the printed
// types, the enclosing function's type parameters, the site and the
// helper's name.
type chanHelper struct {
	ts             []string
	tpDecl, tpArgs string
	pos, site, h   string
}

// chanSite prepares the helper of one channel operation (what, e.g. "a
// send", at at; its site named name at opPos; the helper named after kind),
// or reports why the operation cannot be instrumented.
func (t *transformer) chanSite(stack []ast.Node, at, opPos token.Pos, what, name, kind string, typs ...types.Type) (chanHelper, bool) {
	var c chanHelper
	ts, ok := t.chanTypes(at, what, typs...)
	if !ok {
		return c, false
	}
	tpDecl, tpArgs, ok := t.chanTP(stack, typs...)
	if !ok {
		t.errorf(at, what+" in generic code with a blank type parameter", "name every type parameter of the enclosing function")
		return c, false
	}
	c = chanHelper{ts: ts, tpDecl: tpDecl, tpArgs: tpArgs, pos: t.sitePos(opPos)}
	c.site = t.siteVar(name, c.pos, false)
	c.h = strings.Replace(c.site, "_site_", "_"+kind+"_", 1)
	return c, true
}

// recv routes a receive expression `<-ch` (or `v, ok := <-ch`) through a helper.
func (t *transformer) recv(x *ast.UnaryExpr, stack []ast.Node) {
	info := t.p.Info
	ct := info.TypeOf(x.X)
	ch, ok := ct.Underlying().(*types.Chan)
	if !ok {
		return
	}
	_, commaOK := info.TypeOf(x).(*types.Tuple)
	c, ok := t.chanSite(stack, x.Pos(), x.OpPos, "a receive", "receive from "+types.ExprString(x.X), "recv", ct, ch.Elem())
	if !ok {
		return
	}
	ts, tpDecl, tpArgs, pos, site, h := c.ts, c.tpDecl, c.tpArgs, c.pos, c.site, c.h
	results := ts[1]
	ret := "r0"
	native := "return <-ch"
	if commaOK {
		results = "(" + ts[1] + ", bool)"
		ret = "r0, ok"
		native = "r0, ok := <-ch\n\t\treturn r0, ok"
	}
	if t.turnSite(x.X, stack) {
		// A worker's receive: its turn on the channel is recorded (turns.go).
		native = fmt.Sprintf("turn := %s.Turn(&%s, ch)\n\t\tr0, ok := <-ch\n\t\tturn.Received()\n\t\t_ = ok\n\t\treturn %s", t.probe, site, ret)
	}
	fmt.Fprintf(&t.gen, `// %s receives from %s (%s).
func %s%s(ch %s) %s {
	s := %s.Chan(&%s, ch)
	if s == nil {
		%s
	}
	%s.Recv(s, ch)
	f := s.Call()
	if s.Replaying() {
		s.Answer(f)
		r0 := %s
		ok := s.DecodeBool()
		s.Done(f)
		_ = ok
		return %s
	}
	defer s.Recover(f)
	r0, ok := <-ch
	%s
	s.Bool(ok)
	s.Return(f)
	return %s
}

`, h, types.ExprString(x.X), pos, h, tpDecl, ts[0], results, t.probe, site, native, t.probe, t.decExpr(ch.Elem(), ts[1]), ret, t.encStmt("r0", ch.Elem()), ret)
	span := int(x.End() - x.Pos())
	t.add(x.OpPos, x.X.Pos(), h+tpArgs+"(", span)
	t.add(x.X.End(), x.X.End(), ")", span)
}

// send routes a send statement `ch <- v` through a helper.
func (t *transformer) send(x *ast.SendStmt, stack []ast.Node) {
	info := t.p.Info
	ct := info.TypeOf(x.Chan)
	ch, ok := ct.Underlying().(*types.Chan)
	if !ok {
		return
	}
	c, ok := t.chanSite(stack, x.Pos(), x.Arrow, "a send", "send to "+types.ExprString(x.Chan), "send", ct, ch.Elem())
	if !ok {
		return
	}
	ts, tpDecl, tpArgs, pos, site, h := c.ts, c.tpDecl, c.tpArgs, c.pos, c.site, c.h
	fmt.Fprintf(&t.gen, `// %s sends to %s (%s).
func %s%s(ch %s, v %s) {
	s := %s.Chan(&%s, ch)
	if s == nil {
		ch <- v
		return
	}
	%s.Recv(s, ch)
	%s
	f := s.Call()
	if s.Replaying() {
		s.Answer(f)
		s.Done(f)
		return
	}
	defer s.Recover(f)
	ch <- v
	s.Return(f)
}

`, h, types.ExprString(x.Chan), pos, h, tpDecl, ts[0], ts[1], t.probe, site, t.probe, t.encStmt("v", ch.Elem()))
	span := int(x.End() - x.Pos())
	t.add(x.Chan.Pos(), x.Chan.Pos(), h+tpArgs+"(", span)
	t.add(x.Chan.End(), x.Value.Pos(), ", ", span)
	t.add(x.Value.End(), x.Value.End(), ")", span)
}

// closeChan routes close(ch) through a helper: closing a channel external
// code may receive from is an outgoing event. Replay closes the channel too
// if the log says the close returned, before that return's turn: a
// placeholder's other end does not run, but a receive of observed code that
// started before the channel crossed waits on the channel itself, and its
// events may come before the return (golang-lru's reaper selecting on
// done when the cache that holds done is returned).
func (t *transformer) closeChan(call *ast.CallExpr, stack []ast.Node) {
	if len(call.Args) != 1 {
		return
	}
	ct := t.p.Info.TypeOf(call.Args[0])
	if _, ok := ct.Underlying().(*types.Chan); !ok {
		return
	}
	c, ok := t.chanSite(stack, call.Pos(), call.Lparen, "close", "close "+types.ExprString(call.Args[0]), "close", ct)
	if !ok {
		return
	}
	ts, tpDecl, tpArgs, pos, site, h := c.ts, c.tpDecl, c.tpArgs, c.pos, c.site, c.h
	fmt.Fprintf(&t.gen, `// %s closes %s (%s).
func %s%s(ch %s) {
	s := %s.Chan(&%s, ch)
	if s == nil {
		close(ch)
		return
	}
	%s.Recv(s, ch)
	f := s.Call()
	if s.Replaying() {
		if s.Returns(f) {
			close(ch)
		}
		s.Answer(f)
		s.Done(f)
		return
	}
	defer s.Recover(f)
	close(ch)
	s.Return(f)
}

`, h, types.ExprString(call.Args[0]), pos, h, tpDecl, ts[0], t.probe, site, t.probe)
	span := int(call.End() - call.Pos())
	t.add(call.Fun.Pos(), call.Fun.End(), h+tpArgs, span)
}

// rangeChan routes `for v := range ch` through a helper that returns an
// iterator receiving through a receive helper: each step is a receive.
func (t *transformer) rangeChan(x *ast.RangeStmt, stack []ast.Node) {
	ct := t.p.Info.TypeOf(x.X)
	ch, ok := ct.Underlying().(*types.Chan)
	if !ok {
		return
	}
	c, ok := t.chanSite(stack, x.Pos(), x.For, "a range over a channel", "range over "+types.ExprString(x.X), "range", ct, ch.Elem())
	if !ok {
		return
	}
	ts, tpDecl, tpArgs, pos, site, h := c.ts, c.tpDecl, c.tpArgs, c.pos, c.site, c.h
	nativeRecv := "v, ok := <-ch"
	if t.turnSite(x.X, stack) {
		// A worker's loop: each receive's turn on the channel is recorded (turns.go).
		nativeRecv = fmt.Sprintf("turn := %s.Turn(&%s, ch)\n\t\t\t\tv, ok := <-ch\n\t\t\t\tturn.Received()", t.probe, site)
	}
	if t.langBefore("go1.23") {
		t.rangeChanStepped(x, c, nativeRecv)
		return
	}
	fmt.Fprintf(&t.gen, `// %s ranges over %s (%s): every step is a receive.
func %s%s(ch %s) func(yield func(%s) bool) {
	return func(yield func(%s) bool) {
		for {
			s := %s.Chan(&%s, ch)
			if s == nil {
				%s
				if !ok || !yield(v) {
					return
				}
				continue
			}
			v, ok := %s_step%s(s, ch)
			if !ok || !yield(v) {
				return
			}
		}
	}
}

%s`, h, types.ExprString(x.X), pos, h, tpDecl, ts[0], ts[1], ts[1], t.probe, site, nativeRecv, h, tpArgs, t.rangeStep(h, tpDecl, ts[0], ts[1], ch.Elem()))
	span := int(x.X.End() - x.X.Pos())
	t.add(x.X.Pos(), x.X.Pos(), h+tpArgs+"(", span)
	t.add(x.X.End(), x.X.End(), ")", span)
}

// selectCase is one case of a select being rewritten.
type selectCase struct {
	clause *ast.CommClause
	ch     ast.Expr // channel operand (nil: default)
	val    ast.Expr // sent value
	recv   bool
	elem   types.Type
	chType types.Type
}

// selectStmt rewrites a select statement into a switch on the case a
// helper chose:
//
//	select {                      switch _capture_sel_3 := _capture_select_3(ch, out, x); _capture_sel_3.i {
//	case v := <-ch:          =>   case 0: v := _capture_sel_3.r0
//	case out <- x:                case 1:
//	default:                      default:
//
// The channel operands and sent values move into the helper's arguments,
// evaluated once, in source order, as select evaluates them; the left-hand
// sides of receive cases stay where they are and are assigned only when
// their case is chosen, as in a select. Lines are kept: a case whose
// operands span lines is followed by as many empty lines.
//
// Called after the file's walk, so that edits inside the operands (an
// outcall `<-ctx.Done()`) are known and move with them.
func (t *transformer) selectStmt(x *ast.SelectStmt, stack []ast.Node) {
	info := t.p.Info
	if len(x.Body.List) == 0 {
		return // select {}: blocks forever, nothing to record
	}
	if len(x.Body.List) > 64 {
		t.errorf(x.Pos(), "a select with more than 64 cases", "split it: replay tracks which cases' channels crossed the boundary in 64 bits")
		return
	}
	var cases []selectCase
	for _, st := range x.Body.List {
		cc := st.(*ast.CommClause)
		c := selectCase{clause: cc}
		switch comm := cc.Comm.(type) {
		case nil:
		case *ast.SendStmt:
			c.ch, c.val = comm.Chan, comm.Value
		case *ast.ExprStmt:
			c.ch, c.recv = ast.Unparen(comm.X).(*ast.UnaryExpr).X, true
		case *ast.AssignStmt:
			c.ch, c.recv = ast.Unparen(comm.Rhs[0]).(*ast.UnaryExpr).X, true
		}
		if c.ch != nil {
			c.chType = info.TypeOf(c.ch)
			c.elem = c.chType.Underlying().(*types.Chan).Elem()
		}
		cases = append(cases, c)
	}
	var typs []types.Type
	for _, c := range cases {
		if c.ch != nil {
			typs = append(typs, c.chType, c.elem)
		}
	}
	sc, ok := t.chanSite(stack, x.Pos(), x.Select, "a select", "select in "+t.enclosingFunc(stack), "select", typs...)
	if !ok {
		return
	}
	ts, tpDecl, tpArgs, pos, site, h := sc.ts, sc.tpDecl, sc.tpArgs, sc.pos, sc.site, sc.h
	res := strings.Replace(site, "_site_", "_sel_", 1)

	// Helper parameters, the result struct, and the three bodies: native
	// select, capture select, and the replay's native performance of a case
	// on a channel that did not cross.
	var params, chanArgs, fields []string
	var nativeCases, replayNative, replayDecode, captureEnc, callEnc strings.Builder
	k := 0
	for i, c := range cases {
		if c.ch == nil {
			fmt.Fprintf(&nativeCases, "\tdefault:\n\t\tr.i = -1\n")
			chanArgs = append(chanArgs, "nil")
			continue
		}
		cts, ets := ts[k], ts[k+1]
		k += 2
		params = append(params, fmt.Sprintf("c%d %s", i, cts))
		chanArgs = append(chanArgs, fmt.Sprintf("c%d", i))
		fmt.Fprintf(&callEnc, "\tif s.Crossed(%d) {\n\t\t%s.Encode(s, c%d)\n\t}\n", i, t.probe, i)
		if c.recv {
			fields = append(fields, fmt.Sprintf("r%d %s\n\tok%d bool", i, ets, i))
			fmt.Fprintf(&nativeCases, "\tcase r.r%d, r.ok%d = <-c%d:\n\t\tr.i = %d\n", i, i, i, i)
			fmt.Fprintf(&replayNative, "\t\tcase %d:\n\t\t\tr.r%d, r.ok%d = <-c%d\n", i, i, i, i)
			fmt.Fprintf(&replayDecode, "\t\tif r.i == %d && s.Crossed(%d) {\n\t\t\tr.r%d = %s\n\t\t\tr.ok%d = s.DecodeBool()\n\t\t}\n", i, i, i, t.decExpr(c.elem, ets), i)
			fmt.Fprintf(&captureEnc, "\tif r.i == %d && s.Crossed(%d) {\n\t\t%s\n\t\ts.Bool(r.ok%d)\n\t}\n", i, i, t.encStmt(fmt.Sprintf("r.r%d", i), c.elem), i)
		} else {
			params = append(params, fmt.Sprintf("v%d %s", i, ets))
			fmt.Fprintf(&nativeCases, "\tcase c%d <- v%d:\n\t\tr.i = %d\n", i, i, i)
			fmt.Fprintf(&replayNative, "\t\tcase %d:\n\t\t\tc%d <- v%d\n", i, i, i)
			fmt.Fprintf(&captureEnc, "\tif r.i == %d && s.Crossed(%d) {\n\t\t%s\n\t}\n", i, i, t.encStmt(fmt.Sprintf("v%d", i), c.elem))
		}
	}
	native := "\tselect {\n" + nativeCases.String() + "\t}\n"
	var b strings.Builder
	fmt.Fprintf(&b, "// %s is the outcome of the select at %s.\ntype %s%s struct {\n\ti int // the case taken, -1: default\n", res, pos, res, tpDecl)
	for _, f := range fields {
		b.WriteString("\t" + f + "\n")
	}
	b.WriteString("}\n\n")
	fmt.Fprintf(&b, "// %s performs the select at %s.\n", h, pos)
	fmt.Fprintf(&b, "func %s%s(%s) (r %s%s) {\n", h, tpDecl, strings.Join(params, ", "), res, tpArgs)
	fmt.Fprintf(&b, "\ts := %s.Select(&%s, %s)\n\tif s == nil {\n%s\t\treturn r\n\t}\n", t.probe, site, strings.Join(chanArgs, ", "), indent(native))
	b.WriteString(callEnc.String())
	b.WriteString("\tf := s.Call()\n\tif s.Replaying() {\n")
	b.WriteString("\t\tif i := s.Chosen(f); i >= 0 && !s.Crossed(i) {\n\t\t\tswitch i {\n" + indent(replayNative.String()) + "\t\t\t}\n\t\t}\n")
	b.WriteString("\t\ts.Answer(f)\n\t\tr.i = int(s.DecodeInt())\n" + replayDecode.String() + "\t\ts.Done(f)\n\t\treturn r\n\t}\n")
	b.WriteString("\tdefer s.Recover(f)\n" + native)
	b.WriteString("\ts.Int(int64(r.i))\n" + captureEnc.String() + "\ts.Return(f)\n\treturn r\n}\n\n")
	t.gen.WriteString(b.String())

	// Rewrite the statement. The helper's arguments are the operands'
	// text with the edits already made inside them.
	var args []string
	for _, c := range cases {
		if c.ch == nil {
			continue
		}
		args = append(args, t.moveText(c.ch.Pos(), c.ch.End()))
		if !c.recv {
			args = append(args, t.moveText(c.val.Pos(), c.val.End()))
		}
	}
	span := int(x.End() - x.Pos())
	v := res
	t.add(x.Select, x.Body.Lbrace, fmt.Sprintf("switch %s := %s%s(%s); %s.i ", v, h, tpArgs, strings.Join(args, ", "), v), span)
	hasDefault := false
	for _, c := range cases {
		hasDefault = hasDefault || c.ch == nil
	}
	last := -1
	for i, c := range cases {
		if c.ch != nil {
			last = i
		}
	}
	for i, c := range cases {
		cc := c.clause
		if c.ch == nil {
			continue
		}
		label := fmt.Sprintf("case %d:", i)
		if !hasDefault && i == last {
			// The helper takes one of the cases: the last is the switch's
			// default, so that a select whose cases all return stays a
			// terminating statement.
			label = "default:"
		}
		cspan := int(cc.Colon - cc.Case)
		next := t.p.Fset.Position(cc.Colon).Line + 1
		resync := fmt.Sprintf("\n//line %s:%d", t.names[t.file], next)
		switch comm := cc.Comm.(type) {
		case *ast.AssignStmt:
			// The received value is assigned on a line of its own (gofmt
			// puts statements after a case label on the next line); a
			// //line directive puts the body back on its original lines.
			rhs := fmt.Sprintf("%s.r%d", v, i)
			if len(comm.Lhs) == 2 {
				rhs += fmt.Sprintf(", %s.ok%d", v, i)
			}
			lhs := t.moveText(comm.Lhs[0].Pos(), comm.Lhs[len(comm.Lhs)-1].End())
			t.add(cc.Case, cc.Colon+1, label+"\n"+lhs+" "+comm.Tok.String()+" "+rhs+resync, cspan)
		default:
			if next-1 != t.p.Fset.Position(cc.Case).Line {
				label += resync // the operands spanned lines
			}
			t.add(cc.Case, cc.Colon+1, label, cspan)
		}
	}
}

// moveText returns the source text of [start, end) of the current file
// with the edits inside it applied, and drops those edits (the text moves
// elsewhere). Newlines become spaces.
func (t *transformer) moveText(start, end token.Pos) string {
	src := t.srcs[t.file]
	s, e := t.offset(start), t.offset(end)
	var inside, rest []edit
	for _, ed := range t.edits[t.file] {
		if ed.start >= s && ed.end <= e && ed.span <= e-s {
			inside = append(inside, ed)
		} else {
			rest = append(rest, ed)
		}
	}
	t.edits[t.file] = rest
	sort.SliceStable(inside, func(a, b int) bool {
		if inside[a].start != inside[b].start {
			return inside[a].start < inside[b].start
		}
		return inside[a].span > inside[b].span
	})
	var b strings.Builder
	last := s
	for _, ed := range inside {
		b.Write(src[last:ed.start])
		b.WriteString(ed.text)
		last = ed.end
	}
	b.Write(src[last:e])
	return strings.ReplaceAll(b.String(), "\n", " ")
}

func indent(s string) string {
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l != "" {
			b.WriteString("\t" + l)
		}
	}
	return b.String()
}

// rangeStep is the helper h_step that both forms of a range over a channel
// call for a receive the probe records or replays: chType and elemType are
// the channel's type and its element's as the helper writes them.
func (t *transformer) rangeStep(h, tpDecl, chType, elemType string, elem types.Type) string {
	return fmt.Sprintf(`func %s_step%s(s *%s.Stream, ch %s) (%s, bool) {
	%s.Recv(s, ch)
	f := s.Call()
	if s.Replaying() {
		s.Answer(f)
		v := %s
		ok := s.DecodeBool()
		s.Done(f)
		return v, ok
	}
	defer s.Recover(f)
	v, ok := <-ch
	%s
	s.Bool(ok)
	s.Return(f)
	return v, ok
}

`, h, tpDecl, t.probe, chType, elemType, t.probe, t.decExpr(elem, elemType), t.encStmt("v", elem))
}

// rangeChanStepped is rangeChan for a file whose language version is older
// than go1.23, which cannot range over a function: the loop becomes a
// three-clause for statement whose condition makes one receive (a
// three-clause loop's variables are shared or per iteration exactly as the
// range's are in each language version),
//
//	for v := range ch   ->   for _capture_ch, v := h(ch); h_next(_capture_ch, &v); {
//
// The channel is evaluated once, as range evaluates it.
func (t *transformer) rangeChanStepped(x *ast.RangeStmt, c chanHelper, nativeRecv string) {
	ts, tpDecl, tpArgs, pos, site, h := c.ts, c.tpDecl, c.tpArgs, c.pos, c.site, c.h
	name, ptr := "_", "nil"
	if x.Key != nil {
		id, ok := x.Key.(*ast.Ident)
		if !ok {
			t.errorf(x.Pos(), "a range over a channel into "+types.ExprString(x.Key)+" in a file of language version "+t.fileLang(), "range into a variable and assign it in a statement of its own, or raise the module's go line to 1.23")
			return
		}
		if id.Name != "_" {
			name, ptr = id.Name, "&"+id.Name
		}
	}
	elem := t.p.Info.TypeOf(x.X).Underlying().(*types.Chan).Elem()
	fmt.Fprintf(&t.gen, `// %s starts a range over %s (%s) in a file whose language version
// cannot range over functions: %s_next makes every step's receive.
func %s%s(ch %s) (%s, %s) {
	var v %s
	return ch, v
}

func %s_next%s(ch %s, p *%s) bool {
	s := %s.Chan(&%s, ch)
	if s == nil {
		%s
		if !ok {
			return false
		}
		if p != nil {
			*p = v
		}
		return true
	}
	v, ok := %s_step%s(s, ch)
	if !ok {
		return false
	}
	if p != nil {
		*p = v
	}
	return true
}

%s`, h, types.ExprString(x.X), pos, h, h, tpDecl, ts[0], ts[0], ts[1], ts[1],
		h, tpDecl, ts[0], ts[1], t.probe, site, nativeRecv, h, tpArgs,
		t.rangeStep(h, tpDecl, ts[0], ts[1], elem))
	start := x.Range
	if x.Key != nil {
		start = x.Key.Pos()
	}
	decl := "_capture_ch, " + name
	if x.Tok == token.ASSIGN {
		decl = "_capture_ch, _"
	}
	t.add(start, x.X.Pos(), decl+" := "+h+tpArgs+"(", int(x.X.End()-start))
	// After whatever closes inside the channel expression at its end.
	t.add(x.X.End(), x.X.End(), "); "+h+"_next"+tpArgs+"(_capture_ch, "+ptr+");", 0)
}
