//go:build bench

package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	git "github.com/go-git/go-git/v5"

	"engram/backend/history"
	"engram/backend/memory"
)

// HistoryFigures are the costs of git history (issue 15): the commit each apply_batch makes
// at one store size, and a sync of a batch of changes between two machines.
type HistoryFigures struct {
	N          int     `json:"n"`
	EnableSec  float64 `json:"enable_sec"` // first commit of every file
	Batches    int     `json:"batches"`
	CommitP50  float64 `json:"commit_p50_ms"` // the hook alone: the commit of one batch
	CommitP95  float64 `json:"commit_p95_ms"`
	BatchOnP50 float64 `json:"batch_on_p50_ms"` // a one-item update batch, history on
	BatchOnP95 float64 `json:"batch_on_p95_ms"`
	BatchOffP5 float64 `json:"batch_off_p50_ms"` // the same batch, history off
	BatchOffP9 float64 `json:"batch_off_p95_ms"`
	FirstPush  float64 `json:"first_push_sec"` // every file to an empty bare repository
	FirstPull  float64 `json:"first_pull_sec"` // a second machine takes them (merge + reconcile)
	Changes    int     `json:"changes"`
	PushSec    float64 `json:"push_sec"` // sync of the machine that made the changes
	PullSec    float64 `json:"pull_sec"` // sync of the other: fast-forward, write, reconcile
	PulledOK   bool    `json:"pulled_ok"`
}

// RunHistory generates n memories, turns history on, times batches with and without it,
// then syncs changes updates from one home to a second one through a local bare repository.
func RunHistory(ctx context.Context, n, batches, changes int, progress io.Writer) (HistoryFigures, error) {
	f := HistoryFigures{N: n, Batches: batches, Changes: changes}
	tmp, err := os.MkdirTemp("", "engram-bench-history-")
	if err != nil {
		return f, err
	}
	defer os.RemoveAll(tmp)
	say := func(format string, a ...any) {
		if progress != nil {
			fmt.Fprintf(progress, "  [%d] "+format+"\n", append([]any{n}, a...)...)
		}
	}
	home := filepath.Join(tmp, "a")
	say("generating %d memory files", n)
	r := rand.New(rand.NewPCG(uint64(n), 11))
	v := newVocab(r)
	if _, err := generate(home, n, r, v); err != nil {
		return f, err
	}
	st, err := memory.Open(ctx, home, memory.Options{QuotaLimit: 1 << 30})
	if err != nil {
		return f, err
	}
	defer st.Close()
	repo := history.New(st.Root(), nil)
	var commits []time.Duration
	st.OnApplied(func(a memory.Applied) error {
		t0 := time.Now()
		err := repo.Commit(a)
		commits = append(commits, time.Since(t0))
		return err
	})
	say("enable (first commit)")
	t0 := time.Now()
	if err := st.Locked(func() error { _, err := repo.Enable(); return err }); err != nil {
		return f, err
	}
	f.EnableSec = time.Since(t0).Seconds()
	update := func(i int) error {
		k := r.IntN(n)
		body := v.sentence(r, 30) + fmt.Sprintf(" (edit %d)", i)
		res, err := st.ApplyBatch(ctx, memory.Batch{Actor: memory.ActorTool, Items: []memory.Item{{Op: memory.OpUpdate,
			Scope: memory.ScopeAgent, Agent: fmt.Sprintf("agent-%04d", k/400), Slug: fmt.Sprintf("mem-%07d", k), Mode: "replace", Body: &body}}})
		if err == nil && res.Failed > 0 {
			err = fmt.Errorf("bench: update failed: %s", res.Results[0].Message)
		}
		return err
	}
	timeBatches := func() ([]time.Duration, error) {
		var ds []time.Duration
		for i := 0; i < batches; i++ {
			t0 := time.Now()
			if err := update(i); err != nil {
				return nil, err
			}
			ds = append(ds, time.Since(t0))
		}
		return ds, nil
	}
	say("%d one-item batches with history on", batches)
	on, err := timeBatches()
	if err != nil {
		return f, err
	}
	f.CommitP50, f.CommitP95 = percentile(commits, 0.5), percentile(commits, 0.95)
	f.BatchOnP50, f.BatchOnP95 = percentile(on, 0.5), percentile(on, 0.95)
	say("%d one-item batches with history off", batches)
	if err := repo.Disable(); err != nil {
		return f, err
	}
	off, err := timeBatches()
	if err != nil {
		return f, err
	}
	f.BatchOffP5, f.BatchOffP9 = percentile(off, 0.5), percentile(off, 0.95)
	if err := st.Locked(func() error { _, err := repo.Enable(); return err }); err != nil {
		return f, err
	}

	bare := filepath.Join(tmp, "remote.git")
	if _, err := git.PlainInit(bare, true); err != nil {
		return f, err
	}
	say("first push of every file")
	t0 = time.Now()
	if _, err := repo.Sync(ctx, st, bare); err != nil {
		return f, err
	}
	f.FirstPush = time.Since(t0).Seconds()
	b, err := memory.Open(ctx, filepath.Join(tmp, "b"), memory.Options{QuotaLimit: 1 << 30})
	if err != nil {
		return f, err
	}
	defer b.Close()
	rb := history.New(b.Root(), nil)
	history.Attach(b, rb)
	if err := b.Locked(func() error { _, err := rb.Enable(); return err }); err != nil {
		return f, err
	}
	say("first pull on a second machine")
	t0 = time.Now()
	if _, err := rb.Sync(ctx, b, bare); err != nil {
		return f, err
	}
	f.FirstPull = time.Since(t0).Seconds()
	say("%d changes in batches of 10, then sync both machines", changes)
	for i := 0; i < changes; i += 10 {
		items := make([]memory.Item, 0, 10)
		for j := i; j < i+10 && j < changes; j++ {
			k := (j * 7919) % n // distinct memories
			body := v.sentence(r, 30) + fmt.Sprintf(" (change %d)", j)
			items = append(items, memory.Item{Op: memory.OpUpdate, Scope: memory.ScopeAgent, Agent: fmt.Sprintf("agent-%04d", k/400),
				Slug: fmt.Sprintf("mem-%07d", k), Mode: "replace", Body: &body})
		}
		if _, err := st.ApplyBatch(ctx, memory.Batch{Actor: memory.ActorTool, Items: items}); err != nil {
			return f, err
		}
	}
	t0 = time.Now()
	if _, err := repo.Sync(ctx, st, ""); err != nil {
		return f, err
	}
	f.PushSec = time.Since(t0).Seconds()
	t0 = time.Now()
	res, err := rb.Sync(ctx, b, "")
	if err != nil {
		return f, err
	}
	f.PullSec = time.Since(t0).Seconds()
	k := ((changes - 1) * 7919) % n
	m, err := b.GetBySlug(ctx, memory.ScopeAgent, "", fmt.Sprintf("agent-%04d", k/400), fmt.Sprintf("mem-%07d", k))
	f.PulledOK = err == nil && res.FastForward && res.Changed >= changes && len(m.Body) > 0
	return f, nil
}

// PrintHistory writes the history figures.
func PrintHistory(w io.Writer, f HistoryFigures, asJSON bool) {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(f)
		return
	}
	fmt.Fprintf(w, "git history at %d memories (go-git, one commit per apply_batch)\n", f.N)
	fmt.Fprintf(w, "  enable (first commit of every file)   %8.2f s\n", f.EnableSec)
	fmt.Fprintf(w, "  commit per batch (hook)  p50 %6.2f ms  p95 %6.2f ms   (goal p95 <= 20 ms; %d batches)\n", f.CommitP50, f.CommitP95, f.Batches)
	fmt.Fprintf(w, "  one-item batch, on       p50 %6.2f ms  p95 %6.2f ms\n", f.BatchOnP50, f.BatchOnP95)
	fmt.Fprintf(w, "  one-item batch, off      p50 %6.2f ms  p95 %6.2f ms\n", f.BatchOffP5, f.BatchOffP9)
	fmt.Fprintf(w, "  sync: first push %.2f s, first pull on a second machine %.2f s\n", f.FirstPush, f.FirstPull)
	fmt.Fprintf(w, "  sync of %d changes: push %.2f s, pull (fast-forward + reconcile) %.2f s, pulled ok: %v\n", f.Changes, f.PushSec, f.PullSec, f.PulledOK)
}
