package api

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// transports are the packages that carry the method table to a client. They import api (and
// i18n for their own words) and nothing else of Engram, so a new layer below api never leaks
// into them. package main and backend/wire assemble the services and are exempt.
var transports = []string{"cli", "bridge", "desktop", "mcp"}

var transportMayImport = map[string]bool{"engram/backend/api": true, "engram/backend/i18n": true}

// transportViolations lists "file imports path" for every non-test Go file of dir (build tags
// ignored: desktop_on.go counts as much as desktop_off.go) that imports a forbidden package.
func transportViolations(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var bad []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range af.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if (p == "engram" || strings.HasPrefix(p, "engram/")) && !transportMayImport[p] {
				bad = append(bad, f+" imports "+p)
			}
		}
	}
	return bad
}

// TestTransportsImportOnlyAPI: cli, bridge, desktop and mcp (once it exists) see the backend
// only through api.
func TestTransportsImportOnlyAPI(t *testing.T) {
	seen := 0
	for _, name := range transports {
		dir := filepath.Join("..", name)
		if _, err := os.Stat(dir); os.IsNotExist(err) {
			continue // mcp before it lands
		}
		seen++
		for _, v := range transportViolations(t, dir) {
			t.Error(v)
		}
	}
	if seen < 3 {
		t.Fatalf("found %d transport packages; the test is looking in the wrong place", seen)
	}
}

// TestTransportCheckCatchesViolations: the check itself sees a forbidden import in a
// build-tagged file and lets tests, api and i18n through.
func TestTransportCheckCatchesViolations(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"ok.go":        "package x\nimport (\n\t\"fmt\"\n\t\"engram/backend/api\"\n\t\"engram/backend/i18n\"\n)\n",
		"tagged_on.go": "//go:build desktop\n\npackage x\nimport \"engram/backend/memory\"\n",
		"x_test.go":    "package x\nimport \"engram/backend/recall\"\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	got := transportViolations(t, dir)
	if len(got) != 1 || !strings.HasSuffix(got[0], "tagged_on.go imports engram/backend/memory") {
		t.Fatalf("violations %q, want only tagged_on.go importing memory", got)
	}
}
