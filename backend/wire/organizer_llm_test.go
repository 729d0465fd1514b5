package wire

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"engram/backend/api"
	"engram/backend/i18n"
	"engram/backend/llm/llmtest"
	"engram/backend/organizer"
)

// TestOrganizerRunPlannedByModelOverTheWire: a manual organizer run in a long-running process
// asks the configured provider (through its real wire format) for topic clusters, then for a
// plan per cluster; the model's merge lands in the report for a person to review, a decision
// naming an entry of another cluster is dropped, and applying the merge folds the duplicate
// into its keeper. Every call leaves a usage row under its purpose.
func TestOrganizerRunPlannedByModelOverTheWire(t *testing.T) {
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	svc, err := Open(ctx, Options{Home: t.TempDir(), Lang: "en", Catalog: cat})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	user := svc.API(ctx, api.ActorUser)
	srv := llmtest.NewAnthropic(t)
	configureModel(t, user, srv, false)

	notes := map[string]string{
		"dark-mode":   "Prefers dark mode in every editor; I always switch every editor to dark mode first thing.",
		"dark-theme":  "Uses a dark theme in editors.",
		"home-city":   "Lives in Lisbon.",
		"drinks":      "Drinks green tea, no coffee.",
		"cat-name":    "The cat is called Miso.",
		"deploy-day":  "Deploys happen on Fridays after the release review.",
		"uses-vim":    "Edits config files with vim.",
		"runs-linux":  "Works on Debian 12.",
		"likes-jazz":  "Listens to jazz while coding.",
		"writes-rust": "Writes command-line tools in Rust.",
	}
	ids := map[string]string{}
	for slug, body := range notes {
		res, err := user.Memory.Write(api.WriteParams{Scope: api.ScopeGlobal, Type: api.TypeUser, Slug: slug,
			Title: strings.ReplaceAll(slug, "-", " "), Body: body})
		if err != nil {
			t.Fatal(err)
		}
		ids[slug] = res.ID
	}
	var others []string
	for slug, id := range ids {
		if slug != "dark-mode" && slug != "dark-theme" {
			others = append(others, id)
		}
	}
	topics, _ := json.Marshal(map[string]any{"topic_clusters": []map[string]any{
		{"topic": "Editor theme", "ids": []string{ids["dark-mode"], ids["dark-theme"]}},
		{"topic": "Everything else", "ids": others[:7]},
		{"topic": "Rest", "ids": others[7:]},
	}})
	// One plan answers every cluster: in the editor cluster the merge is valid; elsewhere it
	// names entries outside the cluster and the local gate drops it.
	plan, _ := json.Marshal(map[string]any{"decisions": []map[string]any{{
		"action": "merge_into", "into": ids["dark-mode"], "ids": []string{ids["dark-theme"]}, "confidence": 0.95,
		"reason": "The same preference twice.", "preserved_evidence": []string{"dark mode"}}}})
	srv.Push(llmtest.Call("SubmitMemoryTopicClusters", string(topics)))
	for i := 0; i < 3; i++ {
		srv.Push(llmtest.Call("SubmitMemoryOrganizePlan", string(plan)))
	}

	ref, err := user.Organizer.RunNow(organizer.RunNowParams{Trigger: organizer.TriggerManual})
	if err != nil {
		t.Fatal(err)
	}
	var det organizer.RunDetail
	deadline := time.Now().Add(60 * time.Second)
	for {
		det, err = user.Organizer.Run(organizer.RunParams{ID: ref.ID})
		if err != nil {
			t.Fatal(err)
		}
		if det.Status != organizer.StatusQueued && det.Status != organizer.StatusRunning {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the run never ended: %+v", det.RunSummary)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if det.Status != organizer.StatusDone || det.Report == nil {
		t.Fatalf("run %s: %+v", det.Status, det.RunSummary)
	}
	rep := det.Report
	if rep.Planner != "llm" || rep.Clusterer != "llm" || rep.LLMFallback != nil {
		t.Fatalf("planner %q clusterer %q fallback %+v", rep.Planner, rep.Clusterer, rep.LLMFallback)
	}
	var merge *organizer.Decision
	dropped := 0
	for i := range rep.Decisions {
		d := &rep.Decisions[i]
		if d.Action != organizer.ActionMergeInto {
			continue
		}
		if d.Status == "dropped" {
			if d.Bucket != "outside_cluster" {
				t.Fatalf("a merge dropped for %q, want outside_cluster", d.Bucket)
			}
			dropped++
			continue
		}
		if merge != nil {
			t.Fatalf("two merges survived the gate: %+v", rep.Decisions)
		}
		merge = d
	}
	if dropped != 2 {
		t.Fatalf("%d merges naming another cluster's entries dropped, want 2", dropped)
	}
	if merge == nil || merge.Into == nil || merge.Into.ID != ids["dark-mode"] {
		t.Fatalf("the model's merge is not in the report: %+v", rep.Decisions)
	}
	if got := len(srv.Requests()); got != 4 {
		t.Fatalf("%d provider calls, want 1 clustering + 3 plans", got)
	}
	if _, err := user.Memory.Read(api.RefParams{ID: ids["dark-theme"]}); err != nil {
		t.Fatalf("a manual run applied the merge before review: %v", err)
	}
	applied, err := user.Organizer.ApplyReport(organizer.ApplyParams{RunID: ref.ID, DecisionIDs: []string{merge.ID}})
	if err != nil || applied.Applied != 1 {
		t.Fatalf("apply: %v %+v", err, applied)
	}
	if _, err := user.Memory.Read(api.RefParams{ID: ids["dark-theme"]}); err == nil {
		t.Fatal("the merged duplicate is still live")
	}
	keeper, err := user.Memory.Read(api.RefParams{ID: ids["dark-mode"]})
	if err != nil || !strings.Contains(keeper.Memory.Body, "dark mode") {
		t.Fatalf("keeper: %v %+v", err, keeper.Memory)
	}
	usage, err := user.Usage.Summary(api.UsageParams{Days: 1})
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]int{}
	for _, g := range usage.ByPurpose {
		calls[g.Key] = g.Calls
	}
	if calls["organizer_clusters"] != 1 || calls["organizer_plan"] != 3 {
		t.Fatalf("usage by purpose: %v", calls)
	}
}
