//go:build bench

package cli

import (
	"context"
	"io"

	"engram/backend/bench"
)

// runLocomo scores retrieval on a LoCoMo file through the real recall path.
func runLocomo(ctx context.Context, path string, jsonOut bool, w io.Writer) error {
	return bench.RunLocomo(ctx, path, jsonOut, w)
}
