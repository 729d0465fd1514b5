//go:build !bench

package cli

import (
	"context"
	"errors"
)

// benchCmd in the shipped binaries: the harness builds only with -tags bench (make bench makes
// build/bin/engram-bench), so this answers with a translated hint and exit code 1.
func (r *runner) benchCmd(_ context.Context, _ []string) error {
	return errors.New(r.t("cli.bench.unavailable", nil))
}
