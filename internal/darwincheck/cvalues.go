package main

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
)

// FakeImportC leaves every C name without a type, and go/types then makes
// whatever it touches untyped as well: in `n := int(C.count())` n has no
// type, so a later `n = "three"` would go unreported. cgo itself types such
// expressions without knowing C: a Go conversion of a C call has the Go
// type, and C.GoString, C.GoStringN and C.GoBytes return string, string and
// []byte. retypeCValues rewrites those expressions, in a target package's
// syntax, into calls of a function literal with that result type (keeping
// the arguments, so errors inside them are still found), and the package is
// checked again. A C call's result is never a constant, so the rewrite adds
// no error of its own; a value that is C-typed itself stays unchecked.

// cgoHelperResults are cgo's helpers whose Go result type is fixed.
var cgoHelperResults = map[string]func() ast.Expr{
	"GoString":  func() ast.Expr { return ast.NewIdent("string") },
	"GoStringN": func() ast.Expr { return ast.NewIdent("string") },
	"GoBytes":   func() ast.Expr { return &ast.ArrayType{Elt: ast.NewIdent("byte")} },
}

// retypeCValues rewrites files in place, using info from a first check to
// tell conversions from calls; it reports whether it changed anything.
func retypeCValues(files []*ast.File, info *types.Info) bool {
	changed := false
	for _, file := range files {
		astutil.Apply(file, nil, func(cur *astutil.Cursor) bool {
			call, ok := cur.Node().(*ast.CallExpr)
			if !ok {
				return true
			}
			if result := goResultOf(call, info); result != nil {
				helper, _ := cName(call.Fun)
				cur.Replace(typedCall(call, result, helper))
				changed = true
			}
			return true
		})
	}
	return changed
}

// goResultOf returns the Go type expression call has under cgo, or nil when
// call is neither a cgo helper nor a conversion of a C function's result.
func goResultOf(call *ast.CallExpr, info *types.Info) ast.Expr {
	if name, ok := cName(call.Fun); ok {
		if result, ok := cgoHelperResults[name]; ok {
			return result()
		}
		return nil
	}
	if len(call.Args) != 1 || !info.Types[call.Fun].IsType() {
		return nil
	}
	arg, ok := ast.Unparen(call.Args[0]).(*ast.CallExpr)
	if !ok {
		return nil
	}
	if _, ok := cName(arg.Fun); !ok {
		return nil
	}
	return call.Fun
}

// cName reports the NAME of an expression C.NAME.
func cName(expr ast.Expr) (string, bool) {
	sel, ok := expr.(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return sel.Sel.Name, ok && pkg.Name == "C"
}

// typedCall is `func(...any) RESULT { panic(nil) }(call's arguments)`; for
// a cgo helper the parameter is named after it, `func(GoString ...any)`, so
// that describe can print the call as written.
func typedCall(call *ast.CallExpr, result ast.Expr, helper string) *ast.CallExpr {
	pos := call.Pos()
	param := &ast.Field{Type: &ast.Ellipsis{Ellipsis: pos, Elt: identAt("any", pos)}}
	if helper != "" {
		param.Names = []*ast.Ident{identAt(helper, pos)}
	}
	panicNil := &ast.CallExpr{Fun: identAt("panic", pos), Lparen: pos, Args: []ast.Expr{identAt("nil", pos)}, Rparen: pos}
	literal := &ast.FuncLit{
		Type: &ast.FuncType{
			Func:    pos,
			Params:  &ast.FieldList{Opening: pos, List: []*ast.Field{param}, Closing: pos},
			Results: &ast.FieldList{List: []*ast.Field{{Type: result}}},
		},
		Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{&ast.ExprStmt{X: panicNil}}, Rbrace: pos},
	}
	return &ast.CallExpr{Fun: literal, Lparen: call.Lparen, Args: call.Args, Rparen: call.Rparen}
}

func identAt(name string, pos token.Pos) *ast.Ident {
	return &ast.Ident{NamePos: pos, Name: name}
}
