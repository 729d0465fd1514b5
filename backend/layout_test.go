package backend

// The layout rules of issue 9, checked over the source tree so a newcomer's file lands where the
// architecture says: no hand-written Go file grows past maxLines (split it by noun instead); only
// memory runs SQL on the index (everyone else goes through store methods; tests and the bench
// harness, built only with -tags bench, are exempt); transports see the backend only through
// api (and i18n for their own words), whatever their build tags; embed holds embedders only.

import (
	"errors"
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// maxLines is the most lines a non-test, non-generated Go file may hold.
const maxLines = 500

// sqlOwner is the one package directory that may import database/sql outside tests and bench.
const sqlOwner = "backend/memory"

// transports carry the method table to a client: package main and backend/wire assemble the
// services and are exempt.
var transports = map[string]bool{"backend/cli": true, "backend/bridge": true, "backend/desktop": true, "backend/mcp": true}

// transportMayImport is all of Engram a transport may import, besides its own subpackages
// (backend/bridge/jsonrpc, a leaf reading the protocol).
var transportMayImport = map[string]bool{"engram/backend/api": true, "engram/backend/i18n": true}

// embedMayNotImport keeps embed a package of embedders: where vectors live is vector's, and the
// store is below both.
var embedMayNotImport = map[string]bool{"engram/backend/memory": true, "engram/backend/vector": true}

// skipDirs are not Go sources of the module: the web frontend (and its generated Wails
// bindings), build output and installed node modules.
var skipDirs = map[string]bool{"frontend": true, "build": true, "node_modules": true, "vendor": true}

// moduleRoot walks up from the working directory to the directory holding go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("layout: no go.mod above the working directory")
		}
		dir = parent
	}
}

// generated reports whether a comment before the package clause says the file is generated.
func generated(f *ast.File) bool {
	if ast.IsGenerated(f) {
		return true
	}
	for _, g := range f.Comments {
		if g.Pos() >= f.Package {
			break
		}
		for _, c := range g.List {
			if strings.HasPrefix(c.Text, "// Code generated") {
				return true
			}
		}
	}
	return false
}

// benchOnly reports whether the file's build constraint keeps it out of every build without
// the bench tag (other tags are taken as set, so a platform file is still checked).
func benchOnly(f *ast.File) bool {
	for _, g := range f.Comments {
		if g.Pos() >= f.Package {
			break
		}
		for _, c := range g.List {
			if !constraint.IsGoBuild(c.Text) {
				continue
			}
			expr, err := constraint.Parse(c.Text)
			if err != nil {
				return false
			}
			with := expr.Eval(func(string) bool { return true })
			without := expr.Eval(func(tag string) bool { return tag != "bench" })
			return with && !without
		}
	}
	return false
}

// lineCount counts lines as wc -l does, plus an unterminated last line.
func lineCount(data []byte) int {
	n := strings.Count(string(data), "\n")
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// layoutViolations lists every breach of the layout rules in the module at root, one line each,
// paths relative to root.
func layoutViolations(root string) ([]string, error) {
	var out []string
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			// The go tool ignores testdata and names starting with "." or "_".
			if path != root && (skipDirs[name] || name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, path, data, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return fmt.Errorf("layout: unable to parse %s: %w", rel, err)
		}
		if !generated(f) {
			if n := lineCount(data); n > maxLines {
				out = append(out, fmt.Sprintf("%s has %d lines, at most %d: split it into files named by what they hold", rel, n, maxLines))
			}
		}
		dir := filepath.ToSlash(filepath.Dir(rel))
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			engram := p == "engram" || strings.HasPrefix(p, "engram/")
			switch {
			case p == "database/sql" && dir != sqlOwner && !benchOnly(f):
				out = append(out, fmt.Sprintf("%s imports database/sql: only %s runs SQL on the index", rel, sqlOwner))
			case transports[dir] && engram && !transportMayImport[p] && !strings.HasPrefix(p, "engram/"+dir+"/"):
				out = append(out, fmt.Sprintf("%s imports %s: a transport sees the backend only through api", rel, p))
			case dir == "backend/embed" && embedMayNotImport[p]:
				out = append(out, fmt.Sprintf("%s imports %s: embed holds embedders only", rel, p))
			}
		}
		return nil
	})
	return out, err
}

func TestLayoutOfTree(t *testing.T) {
	root := moduleRoot(t)
	bad, err := layoutViolations(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bad {
		t.Error(b)
	}
}

// TestLayoutRules proves the checker catches each breach it exists for, on small trees.
func TestLayoutRules(t *testing.T) {
	long := func(header string) string {
		return header + "package x\n" + strings.Repeat("// line\n", maxLines)
	}
	exact := "package x\n" + strings.Repeat("// line\n", maxLines-1)
	sqlFile := func(header string) string {
		return header + "package x\n\nimport _ \"database/sql\"\n"
	}
	tests := []struct {
		name  string
		files map[string]string
		want  []string // substrings, one per expected violation
	}{
		{"long file", map[string]string{"backend/x/a.go": long("")}, []string{"backend/x/a.go has 501 lines"}},
		{"exactly the limit", map[string]string{"backend/x/a.go": exact}, nil},
		{"long root file", map[string]string{"app.go": long("")}, []string{"app.go has 501 lines"}},
		{"long test file", map[string]string{"backend/x/a_test.go": long("")}, nil},
		{"long generated file", map[string]string{"backend/x/a.go": long("// Code generated by tsgen. DO NOT EDIT.\n\n")}, nil},
		{"long frontend file", map[string]string{"frontend/wailsjs/a.go": long("")}, nil},
		{"long testdata file", map[string]string{"backend/x/testdata/a.go": long("")}, nil},
		{"sql outside memory", map[string]string{"backend/organizer/a.go": sqlFile("")}, []string{"backend/organizer/a.go imports database/sql"}},
		{"sql in main", map[string]string{"main.go": sqlFile("")}, []string{"main.go imports database/sql"}},
		{"sql in memory", map[string]string{"backend/memory/a.go": sqlFile("")}, nil},
		{"sql below memory", map[string]string{"backend/memory/sub/a.go": sqlFile("")}, []string{"backend/memory/sub/a.go imports database/sql"}},
		{"sql in a test", map[string]string{"backend/api/a_test.go": sqlFile("")}, nil},
		{"sql in bench", map[string]string{"backend/bench/a.go": sqlFile("//go:build bench\n\n")}, nil},
		{"sql in bench and linux", map[string]string{"backend/bench/a.go": sqlFile("//go:build bench && linux\n\n")}, nil},
		{"sql without bench", map[string]string{"backend/bench/a.go": sqlFile("//go:build !bench\n\n")}, []string{"backend/bench/a.go imports database/sql"}},
		{"sql in a platform file", map[string]string{"backend/api/a.go": sqlFile("//go:build !linux\n\n")}, []string{"backend/api/a.go imports database/sql"}},
		{"transport imports api and i18n", map[string]string{"backend/cli/a.go": "package x\nimport (\n\t\"fmt\"\n\t\"engram/backend/api\"\n\t\"engram/backend/i18n\"\n)\n"}, nil},
		{"tagged transport file below api", map[string]string{"backend/desktop/on.go": "//go:build desktop\n\npackage x\nimport \"engram/backend/memory\"\n"}, []string{"backend/desktop/on.go imports engram/backend/memory"}},
		{"transport test below api", map[string]string{"backend/bridge/x_test.go": "package x\nimport \"engram/backend/recall\"\n"}, nil},
		{"wire below api", map[string]string{"backend/wire/a.go": "package x\nimport \"engram/backend/memory\"\n"}, nil},
		{"embed imports the store", map[string]string{"backend/embed/a.go": "package x\nimport \"engram/backend/memory\"\n"}, []string{"backend/embed/a.go imports engram/backend/memory"}},
		{"embed imports text", map[string]string{"backend/embed/a.go": "package x\nimport \"engram/backend/text\"\n"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for rel, src := range tt.files {
				p := filepath.Join(root, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := layoutViolations(root)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("violations = %q, want %d matching %q", got, len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("violation %d = %q, want it to contain %q", i, got[i], w)
				}
			}
		})
	}
}

// TestModuleRootFound guards the walk: a root without the module's own packages would pass
// every rule while checking nothing.
func TestModuleRootFound(t *testing.T) {
	root := moduleRoot(t)
	for _, p := range []string{"go.mod", "backend/memory", "backend/cli", "backend/bridge", "backend/desktop", "backend/embed"} {
		if _, err := os.Stat(filepath.Join(root, p)); errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("module root %s has no %s", root, p)
		}
	}
}
