//go:build bench

package main

import (
	"context"

	"engram/backend/bench"
	"engram/backend/cli"
)

// benchVerb is the harness behind `engram bench` in build/bin/engram-bench (make bench).
var benchVerb = func(ctx context.Context, req cli.BenchRequest) error {
	return bench.Run(ctx, req.What, req.Sizes, req.File, req.JSON, req.Stdout, req.Stderr)
}
