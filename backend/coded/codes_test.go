package coded_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"engram/backend/coded"
	"engram/backend/embed"
	"engram/backend/memory"
	"engram/backend/organizer"
	"engram/backend/recall"
	"engram/backend/settings"
)

// Every package's coded error is translated by api through the one interface.
var (
	_ coded.Error = (*memory.Error)(nil)
	_ coded.Error = (*organizer.Error)(nil)
	_ coded.Error = (*recall.Error)(nil)
	_ coded.Error = (*embed.Error)(nil)
	_ coded.Error = (*settings.InvalidError)(nil)
)

func TestEachPackagesErrorSpeaksItsCode(t *testing.T) {
	for _, tc := range []struct {
		err  error
		code string
		args map[string]any
	}{
		{&memory.Error{Code: memory.CodeNotFound, Args: map[string]any{"Ref": "x"}}, "not_found", map[string]any{"Ref": "x"}},
		{&organizer.Error{Code: organizer.CodeBusy}, "organizer_busy", nil},
		{&recall.Error{Code: recall.CodeInvalidBudget}, "invalid_budget", nil},
		{&embed.Error{Code: embed.CodeEmbeddingFailed}, "embedding_failed", nil},
		{&settings.InvalidError{Field: "theme", Value: "neon"}, "invalid_setting", map[string]any{"Field": "theme", "Value": "neon", "Detail": "theme", "DetailKey": "detail.setting_theme"}},
	} {
		c, ok := coded.As(tc.err)
		if !ok || c.ErrorCode() != tc.code || len(c.ErrorArgs()) != len(tc.args) {
			t.Fatalf("%T: %v %+v, want %s %v", tc.err, ok, c, tc.code, tc.args)
		}
		for k, v := range tc.args {
			if c.ErrorArgs()[k] != v {
				t.Fatalf("%T: args %v, want %v", tc.err, c.ErrorArgs(), tc.args)
			}
		}
	}
}

var codeName = regexp.MustCompile(`^(Code|Warn)[A-Z]`)

// TestNoErrorCodeDefinedTwice: a code string is written once in the backend; a package that
// speaks another's code refers to its constant.
func TestNoErrorCodeDefinedTwice(t *testing.T) {
	seen := map[string]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if i >= len(vs.Values) || !codeName.MatchString(name.Name) {
						continue
					}
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					v, _ := strconv.Unquote(lit.Value)
					where := path + ": " + name.Name
					if prev, dup := seen[v]; dup {
						t.Errorf("code %q defined twice: %s and %s", v, prev, where)
					}
					seen[v] = where
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) < 20 {
		t.Fatalf("found only %d codes; is the walk looking at the backend?", len(seen))
	}
}
