package memory

import (
	"os"
	"path/filepath"
	"testing"
)

// An in-place restore killed between the renames of its swap left the memory folder half old,
// half new, and the rest of the old memories in a hidden folder of the home nothing read
// again. The next open finishes it from the journal: killed while moving the old files
// aside, the home is the old one again, whole; killed while moving the new ones in, it is the
// archive's, whole. Either way the journal and the folders of the swap are gone.
func TestKilledSwapIsFinishedAtTheNextOpen(t *testing.T) {
	defer func() { swapKilled = nil }()
	oldSlugs := []string{"old-tea", "old-coffee", "old-agent-note"}
	newSlugs := []string{"new-tea", "new-agent-note"}
	for _, step := range []string{"aside 4", "aside 5", "in 1", "in 5"} {
		t.Run(step, func(t *testing.T) {
			e := newEnv(t)
			agent := func(it Item) Item { it.Scope, it.Agent = ScopeAgent, "bot"; return it }
			e.ok(wr("old-tea", "Tea", "likes green tea"))
			e.ok(wr("old-coffee", "Coffee", "no coffee after noon"))
			e.ok(agent(wr("old-agent-note", "Note", "an agent's note")))
			e.ok(Item{Op: OpAppendDaily, Text: "an old day"})

			stagedHome := filepath.Join(e.home, ".restore-test")
			other, err := Open(e.ctx, stagedHome, e.opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range []Item{wr("new-tea", "Tea", "likes oolong"), agent(wr("new-agent-note", "Note", "the archive's note")),
				{Op: OpAppendDaily, Text: "a restored day"}} {
				if res, err := other.ApplyBatch(e.ctx, Batch{Actor: ActorUser, Items: []Item{it}}); err != nil || !res.Results[0].OK {
					t.Fatalf("staged write: %+v %v", res, err)
				}
			}
			other.Close()
			aside := filepath.Join(e.home, ".restore-old-test")
			fired := false
			swapKilled = func(s string) bool { fired = fired || s == step; return s == step }
			err = e.s.Exclusive(e.ctx, func(x *Exclusive) error {
				_, err := x.ReplaceFiles(e.ctx, filepath.Join(stagedHome, "memory"), aside)
				return err
			})
			swapKilled = nil
			if err != errSwapKilled || !fired {
				t.Fatalf("the swap was not stopped at %s: %v", step, err)
			}
			e.reopen()
			want, gone := oldSlugs, newSlugs
			if step[:2] == "in" {
				want, gone = newSlugs, oldSlugs
			}
			for _, slug := range want {
				agentName := ""
				if slug != "old-tea" && slug != "old-coffee" && slug != "new-tea" {
					agentName = "bot"
				}
				scope := ScopeGlobal
				if agentName != "" {
					scope = ScopeAgent
				}
				if _, err := e.s.GetBySlug(e.ctx, scope, "", agentName, slug); err != nil {
					t.Errorf("%s is missing after the open: %v", slug, err)
				}
			}
			for _, slug := range gone {
				if n := e.count(`SELECT COUNT(*) FROM memory_meta WHERE slug = '` + slug + `'`); n != 0 {
					t.Errorf("%s is there too: the home is half one state, half the other", slug)
				}
			}
			for _, p := range []string{filepath.Join(e.home, swapJournal), aside, stagedHome} {
				if _, err := os.Stat(p); err == nil {
					t.Errorf("%s is left", p)
				}
			}
		})
	}
}
