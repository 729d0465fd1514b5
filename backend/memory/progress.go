package memory

import "context"

// ProgressFunc hears how far a long maintenance pass is (reindex, doctor): phase names the
// step ("walk", "index", "commit", "integrity", "checksum"), done of total its items (total 0
// when unknown yet). It is called from the pass's goroutine and must not block.
type ProgressFunc func(phase string, done, total int)

type progressKey struct{}

// WithProgress returns ctx carrying fn: Reindex and Doctor called with it report their
// progress to fn, so Settings → Data can draw a bar while they run.
func WithProgress(ctx context.Context, fn ProgressFunc) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

// progressOf returns ctx's listener, or one that ignores everything.
func progressOf(ctx context.Context) ProgressFunc {
	if fn, ok := ctx.Value(progressKey{}).(ProgressFunc); ok && fn != nil {
		return fn
	}
	return func(string, int, int) {}
}

// progressStep reports done of total at most about a hundred times over a pass, and at its end.
func progressStep(fn ProgressFunc, phase string, done, total int) {
	if step := max(total/100, 1); done == total || done%step == 0 {
		fn(phase, done, total)
	}
}
