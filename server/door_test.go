package server

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestAdminPlumbingLivesOnce: the way into the engine loop (do, post) and
// the operators' calls built on it are written once, on door, not once per
// transport.
func TestAdminPlumbingLivesOnce(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	decls := map[string][]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil {
				continue
			}
			recv := fn.Recv.List[0].Type
			if st, ok := recv.(*ast.StarExpr); ok {
				recv = st.X
			}
			if id, ok := recv.(*ast.Ident); ok {
				decls[fn.Name.Name] = append(decls[fn.Name.Name], id.Name+" in "+f)
			}
		}
	}
	for _, m := range []string{"do", "post", "engine", "Sessions", "Kick", "Stats", "Reconfigure"} {
		if len(decls[m]) != 1 {
			t.Errorf("%s is declared %d times: %v", m, len(decls[m]), decls[m])
		}
	}
}
