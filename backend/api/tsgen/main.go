// Command tsgen writes frontend/src/api/types.ts from the Go types that cross api/, so the web
// UI's types come from one source. Run it with `make types`; TestTypesAreCurrent fails when the
// committed file differs from what it writes.
//
// It renders each listed Go struct as a TypeScript interface by its JSON encoding: the json tag
// names the field, omitempty makes it optional, pointers, slices and maps may be null, named
// string types become the unions of types.manual.ts. Unions, constants, events and the
// narrower shapes the UI sends (ReadParams, IdParams, Settings) stay hand-written there and are
// re-exported.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	out := flag.String("o", "", "write to this file instead of stdout")
	flag.Parse()
	src, err := Generate()
	if err != nil {
		fmt.Fprintln(os.Stderr, "tsgen:", err)
		os.Exit(1)
	}
	if *out == "" {
		fmt.Print(src)
		return
	}
	if err := os.WriteFile(*out, []byte(src), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "tsgen:", err)
		os.Exit(1)
	}
}
