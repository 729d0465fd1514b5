package main

import (
	"os"
	"strings"
	"testing"
)

// TestTypesAreCurrent fails when frontend/src/api/types.ts is not what the generator writes
// from the Go types today: a Go type crossing api/ changed and `make types` was not run.
func TestTypesAreCurrent(t *testing.T) {
	want, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../../frontend/src/api/types.ts")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(want, "\n")
		for i := 0; i < min(len(gl), len(wl)); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("frontend/src/api/types.ts is stale (run make types): line %d is %q, want %q", i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("frontend/src/api/types.ts is stale (run make types): %d lines, want %d", len(gl), len(wl))
	}
}

// TestEveryOverrideApplies: an override whose field was renamed or removed is an error, not a
// silently ignored line.
func TestEveryOverrideApplies(t *testing.T) {
	fields["AppInfo.no_such_field"] = "string"
	defer delete(fields, "AppInfo.no_such_field")
	if _, err := Generate(); err == nil || !strings.Contains(err.Error(), "no_such_field") {
		t.Fatalf("want an error naming the stale override, got %v", err)
	}
}

// TestRendering pins the JSON-to-TypeScript rules on the generated text.
func TestRendering(t *testing.T) {
	src, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"export interface MemorySummary {\n  id: string\n", // a plain field
		"  workdir?: string\n",                             // omitempty → optional
		"  tags: string[] | null\n",                        // a nil slice is null
		"  reviewed?: boolean | null\n",                    // *bool, omitempty
		"  scope: Scope\n",                                 // a named Go type → its union
		"export interface RunDetail extends RunSummary {",  // an embedded struct
		"export interface Memory extends MemorySummary {",
		"  items: MemorySummary[]\n", // an override: the api never sends null
		"export * from './types.manual'",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("generated types lack %q", want)
		}
	}
}
