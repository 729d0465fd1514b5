package history

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"

	"engram/backend/memory"
)

func dayFile(t *testing.T, id string, updated time.Time, body string) []byte {
	t.Helper()
	out, err := memory.Render(&memory.Memory{ID: id, Slug: "2026-12-06", Title: "2026-12-06", Scope: memory.ScopeGlobal,
		Type: memory.TypeDaily, Confidence: memory.ConfidenceMedium, Reviewed: true, Source: memory.Source{Kind: "user"},
		Created: updated, Updated: updated, Body: body})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestMergeDailyKeepsEntriesWhole(t *testing.T) {
	t0 := time.Date(2026, 12, 6, 7, 0, 0, 0, time.UTC)
	ours := dayFile(t, "01M95380KGNYTJJCBJM0KTYZCX", t0, "## 07:20 · user\n\nfrom A\n")
	theirs := dayFile(t, "01M953K3DFYVKWQ42N9G2M5HAP", t0.Add(time.Minute), "## 07:10 · codex\n\nfrom B\n\n## 07:20 · user\n\nfrom A\n")
	merged, ok := mergeDaily(nil, ours, theirs)
	if !ok {
		t.Fatal("two journal days did not merge")
	}
	m, err := memory.Parse(merged)
	if err != nil {
		t.Fatal(err)
	}
	if m.ID != "01M95380KGNYTJJCBJM0KTYZCX" || !m.Updated.Equal(t0.Add(time.Minute)) {
		t.Fatalf("header = id %s updated %v, want ours with the later time", m.ID, m.Updated)
	}
	if strings.Contains(m.Body, "id:") || strings.Contains(m.Body, "---") {
		t.Fatalf("a header line got into the day's text: %q", m.Body)
	}
	got := memory.DailyEntries(m.Body)
	if len(got) != 2 || got[0].Text != "from B" || got[0].Author != "codex" || got[1].Text != "from A" || got[1].AuthorKind != memory.AuthorPerson {
		t.Fatalf("entries = %+v, want B's 07:10 then A's 07:20, each under its heading", got)
	}
}

func TestMergeDailyThreeWay(t *testing.T) {
	t0 := time.Date(2026, 12, 6, 7, 0, 0, 0, time.UTC)
	id := "01M95380KGNYTJJCBJM0KTYZCX"
	base := dayFile(t, id, t0, "## 07:00 · user\n\nold note\n")
	// Ours deleted the old note by hand; theirs added one.
	ours := dayFile(t, id, t0, "## 07:05 · user\n\nmine\n")
	theirs := dayFile(t, id, t0, "## 07:00 · user\n\nold note\n\n## 07:30 · user\n\ntheirs\n\n```\n## 08:00 · user\n```\n")
	merged, ok := mergeDaily(base, ours, theirs)
	if !ok {
		t.Fatal("not merged")
	}
	m, _ := memory.Parse(merged)
	if strings.Contains(m.Body, "old note") {
		t.Fatalf("an entry this machine deleted came back: %q", m.Body)
	}
	got := memory.DailyEntries(m.Body)
	if len(got) != 2 || got[0].Text != "mine" || !strings.HasPrefix(got[1].Text, "theirs") || !strings.Contains(got[1].Text, "## 08:00") {
		t.Fatalf("entries = %+v", got)
	}
	// Nothing new on their side: ours, byte for byte.
	if same, ok := mergeDaily(nil, ours, ours); !ok || string(same) != string(ours) {
		t.Fatal("merging a day with itself changed it")
	}
	if _, ok := mergeDaily(nil, ours, []byte("id: broken\nno header")); ok {
		t.Fatal("a version that is no journal day was merged")
	}
}

// The QA repro: both machines write the same day, then sync A, B, A.
func TestSyncedJournalDayKeepsBothMachinesEntries(t *testing.T) {
	ctx := context.Background()
	bare := filepath.Join(t.TempDir(), "remote.git")
	if _, err := git.PlainInit(bare, true); err != nil {
		t.Fatal(err)
	}
	a, ra := openHome(t, t.TempDir(), true)
	b, rb := openHome(t, t.TempDir(), true)
	if _, err := ra.Sync(ctx, a, bare); err != nil {
		t.Fatal(err)
	}
	if _, err := rb.Sync(ctx, b, bare); err != nil {
		t.Fatal(err)
	}
	write(t, a, memory.ActorUser, memory.Item{Op: memory.OpAppendDaily, Text: "from A"})
	write(t, b, memory.ActorUser, memory.Item{Op: memory.OpAppendDaily, Text: "from B"})
	for i, step := range []struct {
		st *memory.Store
		r  *Repo
	}{{a, ra}, {b, rb}, {a, ra}} {
		if res, err := step.r.Sync(ctx, step.st, ""); err != nil || len(res.Conflicts) != 0 {
			t.Fatalf("sync %d = %+v, %v", i, res, err)
		}
	}
	for name, st := range map[string]*memory.Store{"A": a, "B": b} {
		days, _, err := st.List(ctx, memory.Filter{Type: memory.TypeDaily, Limit: 10})
		if err != nil || len(days) != 1 {
			t.Fatalf("%s's days = %v, %v", name, days, err)
		}
		day, err := st.Get(ctx, days[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(day.Body, "id:") {
			t.Fatalf("%s's journal holds a header line: %q", name, day.Body)
		}
		var texts []string
		for _, e := range memory.DailyEntries(day.Body) {
			if e.Time == "" || e.AuthorKind != memory.AuthorPerson {
				t.Fatalf("%s: entry without its heading: %+v", name, e)
			}
			texts = append(texts, e.Text)
		}
		if strings.Join(texts, "|") != "from A|from B" && strings.Join(texts, "|") != "from B|from A" {
			t.Fatalf("%s's entries = %q", name, texts)
		}
	}
}
