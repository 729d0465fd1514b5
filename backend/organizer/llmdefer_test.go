package organizer

import (
	"encoding/json"
	"fmt"
	"testing"

	"engram/backend/llm"
	"engram/backend/llm/llmtest"
	"engram/backend/prompts"
)

// TestLLMPlanOverTheLimitIsTakenInPart: a plan of more than 24 decisions for one cluster was
// refused whole ("too many entries, none of it was used") and the cluster planned offline, so
// a model that planned well but too much lost every decision. Now the first 24, in the
// model's order, go through the gate as any plan does (waiting for a person, never applied
// by a scheduled run on its own) and the rest are reported deferred —
// dropped, nothing done to their memories, the count and the limit in their reason — whatever
// they ask (a confident delete, a merge, an action Engram does not offer, a memory outside
// the cluster). A scheduled run over the loopback OpenAI server, streamed.
func TestLLMPlanOverTheLimitIsTakenInPart(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	client, err := llm.New(llm.Config{Provider: llm.ProviderOpenAI, BaseURL: srv.URL(), Model: "gpt-4o-mini", Streaming: true}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	e := newLLMEnv(t, 0, provide(client))
	ids := dupes(e) // eight entries: one cluster, no topic call

	ds := []map[string]any{{"action": "merge_into", "into": ids["dark-mode"], "ids": []string{ids["dark-theme"]}, "confidence": 0.95,
		"reason": "Same preference twice.", "preserved_evidence": []string{"I always switch every editor to dark mode first thing"}}}
	for len(ds) < maxPlanDecisions {
		ds = append(ds, map[string]any{"action": "keep", "ids": []string{ids["likes-go"]}, "confidence": 0.9, "reason": "Fine."})
	}
	ds = append(ds,
		map[string]any{"action": "delete", "ids": []string{ids["lives-berlin"]}, "confidence": 0.99, "reason": "Stale."},
		map[string]any{"action": "merge_into", "into": ids["drinks"], "ids": []string{ids["drinks-2"]}, "confidence": 0.99, "reason": "Same list."},
		map[string]any{"action": "accept", "ids": []string{ids["deploy-day"]}, "confidence": 1, "reason": "Looks right."},
		map[string]any{"action": "delete", "ids": []string{"01ZZZZZZZZZZZZZZZZZZZZZZZZ"}, "confidence": 1, "reason": "Elsewhere."},
		map[string]any{"action": "keep", "ids": []string{ids["deploy-day-long"]}, "confidence": 1, "reason": "Fine."})
	args, _ := json.Marshal(map[string]any{"decisions": ds, "summary": "tidy"})
	srv.Push(llmtest.Call(prompts.OrganizerPlanTool, string(args)))

	det := e.run(TriggerScheduled)
	rep := det.Report
	if det.Status != StatusDone || rep == nil {
		t.Fatalf("status %s (%+v)", det.Status, det.Error)
	}
	if rep.Counts.ClustersFallback != 0 || len(rep.Clusters) != 1 || rep.Clusters[0].Planner != "llm" || rep.Clusters[0].Error != nil {
		t.Fatalf("clusters %+v (counts %+v): want the one cluster planned by the model", rep.Clusters, rep.Counts)
	}
	live := e.live()
	// The merge among the first 24 is taken but not applied: a plan over the limit is a
	// misbehaving model's, so what is taken from it waits for a person, even at 0.95 in a
	// scheduled run that applies a one-decision plan's merge on its own.
	if live["global/dark-theme"] == nil || live["global/dark-mode"] == nil {
		t.Fatal("a decision from a plan over the limit was applied by the scheduled run")
	}
	if waits := decisionsIn(rep, BucketOversizedPlan); len(waits) != 1 || waits[0].Action != ActionMergeInto ||
		waits[0].Status != DecisionPending || waits[0].Outcome != OutcomeQueue {
		t.Fatalf("waiting for a person: %+v (buckets %v), want the merge, pending", waits, rep.RejectionBuckets)
	}
	for _, slug := range []string{"lives-berlin", "drinks", "drinks-2", "deploy-day", "deploy-day-long", "likes-go"} {
		if m := live["global/"+slug]; m == nil || m.Reviewed {
			t.Fatalf("%s was changed by a decision beyond the limit: %+v", slug, m)
		}
	}
	deferred := decisionsIn(rep, BucketDeferred)
	if len(deferred) != 4 || rep.RejectionBuckets[BucketDeferred] != 4 {
		t.Fatalf("%d deferred decisions (buckets %v), want 4 (the keep beyond the limit changes nothing)", len(deferred), rep.RejectionBuckets)
	}
	want := []struct {
		action     Action
		target     string
		confidence float64 // the model's, as sent
	}{{ActionDelete, "lives-berlin", 0.99}, {ActionMergeInto, "drinks-2", 0.99}, {"", "deploy-day", 1}, {ActionDelete, "", 1}}
	for i, d := range deferred {
		if d.Status != DecisionDropped || d.Outcome != OutcomeDrop || d.Reason.Code != ReasonDeferred ||
			fmt.Sprint(d.Reason.Args["Count"]) != fmt.Sprint(len(ds)) || fmt.Sprint(d.Reason.Args["Max"]) != fmt.Sprint(maxPlanDecisions) || d.Action != want[i].action ||
			d.Confidence != want[i].confidence {
			t.Fatalf("deferred %d = %+v", i, d)
		}
		if got := len(d.Targets); (want[i].target == "") != (got == 0) || got > 0 && d.Targets[0].Slug != want[i].target {
			t.Fatalf("deferred %d targets %+v, want %q", i, d.Targets, want[i].target)
		}
	}
}

// TestLLMTopicsOverTheLimitAreTakenInPart: an answer of more topic clusters than asked for
// (12) was refused whole and the scope grouped structurally, losing every topic the model
// found. Now the first 12 are used and the memories of the rest are left out, grouped
// structurally and counted as left out — never put in a topic the model did not send first.
func TestLLMTopicsOverTheLimitAreTakenInPart(t *testing.T) {
	var ids map[string]string
	m := corpusModel(t, &ids, func() (llm.Response, error) {
		cs := goodTopics(ids)["topic_clusters"].([]map[string]any)
		for len(cs) < MaxTopicClusters {
			cs = append(cs, map[string]any{"topic": "Nothing", "ids": []string{fmt.Sprintf("01NOPE%d", len(cs))}})
		}
		cs = append(cs, map[string]any{"topic": "Drinks", "ids": []string{ids["drinks"], ids["drinks-2"]}})
		return callReply(prompts.OrganizerTopicsTool, map[string]any{"topic_clusters": cs})
	}, nil)
	e := newLLMEnv(t, 0, provide(m))
	ids = corpus(e)
	det := e.run(TriggerManual)
	if det.Status != StatusDone || len(det.Report.Clustering) != 1 {
		t.Fatalf("status %s clustering %+v", det.Status, det.Report.Clustering)
	}
	sc := det.Report.Clustering[0]
	if sc.Clusterer != "llm" || sc.Fallback != nil || sc.Topics != 3 || sc.LeftOut != 5 {
		t.Fatalf("clustering %+v (fallback %+v), want the model's 3 topics and 5 left out", sc, sc.Fallback)
	}
	for _, c := range det.Report.Clusters {
		if c.Topic == "Drinks" {
			t.Fatalf("the 13th topic was used: %+v", c)
		}
	}
}
