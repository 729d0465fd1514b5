//go:build !bench

package main

import (
	"context"

	"engram/backend/cli"
)

// benchVerb is nil in the shipped binaries: `engram bench` answers with a translated hint.
var benchVerb func(ctx context.Context, req cli.BenchRequest) error
