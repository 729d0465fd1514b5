package organizer

import (
	"fmt"
	"math/rand"
	"testing"

	"engram/backend/memory"
)

// TestApplyReportBeyondOneBatch: "apply all" on a manual run over a large store (501 pairs
// of exact copies: 1,002 items, past memory.MaxBatchItems) was refused whole ("a batch holds
// at most 1000 items") and nothing was applied. The decisions are now applied in batches of
// whole decisions: every merge lands, and the compression figure counts them all.
func TestApplyReportBeyondOneBatch(t *testing.T) {
	e := newLLMEnv(t, 5000, nil)
	r := rand.New(rand.NewSource(1))
	word := func() string {
		b := make([]byte, 7)
		for i := range b {
			b[i] = byte('a' + r.Intn(26))
		}
		return string(b)
	}
	const pairs = 501
	var items []memory.Item
	for i := 0; i < pairs; i++ {
		body := fmt.Sprintf("The user %s %s %s %s.", word(), word(), word(), word())
		items = append(items, item(fmt.Sprintf("p%d-a", i), "Note "+body[9:16], body),
			item(fmt.Sprintf("p%d-b", i), "Note "+body[9:16], body))
	}
	for len(items) > 0 {
		n := min(len(items), 500)
		e.write(memory.ActorExtractor, items[:n]...)
		items = items[n:]
	}

	det := e.run(TriggerManual)
	var ids []string
	for _, d := range det.Report.Decisions {
		if d.Status == DecisionPending && d.Action == ActionMergeInto {
			ids = append(ids, d.ID)
		}
	}
	if len(ids) != pairs {
		t.Fatalf("%d pending merges, want %d", len(ids), pairs)
	}
	res, err := e.svc.ApplyReport(e.ctx, det.ID, ids)
	if err != nil {
		t.Fatalf("ApplyReport: %v", err)
	}
	if res.Applied != pairs || res.Failed != 0 || res.FinalCount != pairs || res.CompressionRatio != 0.5 {
		t.Fatalf("applied %d failed %d final %d ratio %v, want %d, 0, %d, 0.5", res.Applied, res.Failed, res.FinalCount,
			res.CompressionRatio, pairs, pairs)
	}
	if n := len(e.live()); n != pairs {
		t.Fatalf("%d memories left, want %d", n, pairs)
	}
	after := e.detail(det.ID)
	if after.Report.Counts.Removed != pairs || after.Report.Counts.Applied != pairs || after.FinalCount != pairs {
		t.Fatalf("stored report: removed %d applied %d final %d", after.Report.Counts.Removed, after.Report.Counts.Applied, after.FinalCount)
	}
}
