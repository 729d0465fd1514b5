package organizer

import (
	"context"
	"strings"
	"testing"

	"engram/backend/llm"
	"engram/backend/prompts"
)

// goodTopics groups the corpus: an editor topic (with an unknown id), a deploy topic (with
// dark-theme again) and a home topic (with the project's entry, not of this scope). drinks,
// drinks-2, likes-go, tabs and tea-time are left out.
func goodTopics(ids map[string]string) map[string]any {
	return map[string]any{"topic_clusters": []map[string]any{
		{"topic": "Editor theme", "ids": []string{ids["dark-mode"], ids["dark-theme"], ids["uses-vim"], "01NOPE"}},
		{"topic": "Deploys", "ids": []string{ids["deploy-day"], ids["deploy-day-long"], ids["dark-theme"]}},
		{"topic": "Home", "ids": []string{ids["home-city"], ids["lives-berlin"], ids["cat-name"], ids["project/dark-mode"]}},
	}}
}

// goodPlan plans each cluster of the corpus as a careful model would, plus two decisions the
// gate must refuse (an entry of another cluster, the project's copy merged across scopes).
func goodPlan(ids map[string]string, cluster []string) map[string]any {
	has := func(slug string) bool { return contains(cluster, ids[slug]) }
	var ds []map[string]any
	switch {
	case has("dark-mode"):
		ds = append(ds,
			map[string]any{"action": "merge_into", "into": ids["dark-mode"], "ids": []string{ids["dark-theme"]}, "confidence": 0.95,
				"reason": "Same preference twice.", "preserved_evidence": []string{"I always switch every editor to dark mode first thing"}},
			map[string]any{"action": "rewrite_hint", "ids": []string{ids["uses-vim"]}, "confidence": 0.9, "reason": "Vague.",
				"hint": "Say which files."},
			map[string]any{"action": "delete", "ids": []string{ids["drinks"]}, "confidence": 0.99, "reason": "Not this topic."})
	case has("deploy-day"):
		ds = append(ds, map[string]any{"action": "merge_into", "into": ids["deploy-day-long"], "ids": []string{ids["deploy-day"]},
			"confidence": 0.9, "reason": "The long note holds the short one.", "preserved_evidence": []string{"Fridays after the release review"}})
	case has("home-city"):
		ds = append(ds,
			map[string]any{"action": "delete", "ids": []string{ids["home-city"]}, "confidence": 0.99, "reason": "Looks stale."},
			map[string]any{"action": "mark_review", "ids": []string{ids["cat-name"]}, "confidence": 0.75, "reason": "Unsure."})
	case contains(cluster, ids["project/dark-mode"]):
		ds = append(ds, map[string]any{"action": "merge_into", "into": ids["dark-mode"], "ids": []string{ids["project/dark-mode"]},
			"confidence": 0.99, "reason": "Same as the global note."})
	}
	if ds == nil {
		ds = []map[string]any{}
	}
	return map[string]any{"decisions": ds, "summary": "ok", "expected_removed": 1}
}

// corpusModel answers the corpus with goodTopics and goodPlan, letting plan override the
// answer for a cluster (nil: goodPlan).
func corpusModel(t *testing.T, ids *map[string]string, topics func() (llm.Response, error),
	plan func(cluster []string) (llm.Response, error)) *scriptedModel {
	return &scriptedModel{fn: func(ctx context.Context, req llm.Request) (llm.Response, error) {
		switch req.Purpose {
		case llm.PurposeOrganizerTopics:
			if topics != nil {
				return topics()
			}
			return callReply(prompts.OrganizerTopicsTool, goodTopics(*ids))
		case llm.PurposeOrganizerPlan:
			cluster := promptIDs(t, req)
			if plan != nil {
				if r, err := plan(cluster); r.ToolCalls != nil || r.Text != "" || err != nil {
					return r, err
				}
			}
			return callReply(prompts.OrganizerPlanTool, goodPlan(*ids, cluster))
		}
		t.Errorf("unexpected purpose %q", req.Purpose)
		return llm.Response{}, ctx.Err()
	}}
}

func TestLLMScheduledRunEndToEnd(t *testing.T) {
	var ids map[string]string
	m := corpusModel(t, &ids, nil, nil)
	e := newLLMEnv(t, 150, provide(m))
	ids = corpus(e)

	det := e.run(TriggerScheduled)
	if det.Status != StatusDone {
		t.Fatalf("status %s (%+v), want done", det.Status, det.Error)
	}
	rep := det.Report
	if rep.Planner != "llm" || rep.Clusterer != "llm" || rep.Model != "scripted/test-model" || rep.LLMFallback != nil {
		t.Fatalf("planner %q clusterer %q model %q fallback %+v", rep.Planner, rep.Clusterer, rep.Model, rep.LLMFallback)
	}

	// Clustering: one call for the global scope (13 entries); the project's one entry is not clustered.
	if n := len(m.requests(llm.PurposeOrganizerTopics)); n != 1 {
		t.Fatalf("%d topic calls, want 1", n)
	}
	if len(rep.Clustering) != 1 {
		t.Fatalf("clustering = %+v, want the global scope", rep.Clustering)
	}
	sc := rep.Clustering[0]
	if sc.Clusterer != "llm" || sc.Topics != 3 || sc.UnknownIDs != 2 || sc.RepeatedIDs != 1 || sc.LeftOut != 5 || sc.Fallback != nil {
		t.Fatalf("global clustering = %+v, want 3 topics, 2 unknown ids, 1 repeated, 5 left out", sc)
	}
	topics := map[string][]string{}
	for _, c := range rep.Clusters {
		if c.Status != ClusterOK || c.Planner != "llm" {
			t.Fatalf("cluster %+v, want planned by the model", c)
		}
		if c.Size > MaxClusterSize {
			t.Fatalf("cluster %s holds %d entries", c.Key, c.Size)
		}
		topics[c.Topic] = append(topics[c.Topic], c.EntryIDs...)
	}
	if got := topics["Editor theme"]; len(got) != 3 || got[0] != ids["dark-mode"] || got[1] != ids["dark-theme"] {
		t.Fatalf("editor topic = %v, want dark-mode, dark-theme, uses-vim", got)
	}
	if got := topics["Deploys"]; len(got) != 2 || contains(got, ids["dark-theme"]) {
		t.Fatalf("deploy topic = %v, want dark-theme kept in its first cluster only", got)
	}
	if got := topics["Home"]; len(got) != 3 || contains(got, ids["project/dark-mode"]) {
		t.Fatalf("home topic = %v, want the project's entry kept out", got)
	}
	if left := topics[""]; len(left) != 5+1 { // the structural group of five, and the project's cluster
		t.Fatalf("untitled clusters hold %v, want the 5 left out plus the project entry", left)
	}

	// Applied: the two low-risk merges. Queued: the reviewed entry's delete (high risk) and
	// the unsure review. Dropped: the other cluster's entry, the cross-scope merge, the hint.
	live := e.live()
	for _, gone := range []string{"dark-theme", "deploy-day"} {
		if live["global/"+gone] != nil {
			t.Fatalf("%s survives; the scheduled run should have merged it", gone)
		}
	}
	for _, kept := range []string{"global/dark-mode", "global/deploy-day-long", "global/home-city", "global/drinks",
		"global/cat-name", "project/dark-mode", "global/uses-vim"} {
		if live[kept] == nil {
			t.Fatalf("%s was removed", kept)
		}
	}
	if dm := live["global/dark-mode"]; dm.SourceQuote != "I always switch every editor to dark mode first thing" {
		t.Fatalf("merged quote = %q, want the preserved evidence", dm.SourceQuote)
	}
	want := map[string]struct {
		outcome Outcome
		bucket  string
		risk    Risk
	}{
		ids["dark-theme"]:        {OutcomeAuto, "", RiskLow},
		ids["deploy-day"]:        {OutcomeAuto, "", RiskLow},
		ids["home-city"]:         {OutcomeQueue, BucketHighRisk, RiskHigh},
		ids["cat-name"]:          {OutcomeQueue, BucketBelowConfidence, RiskLow},
		ids["drinks"]:            {OutcomeDrop, BucketOutsideCluster, RiskHigh},
		ids["project/dark-mode"]: {OutcomeDrop, BucketCrossScope, RiskHigh},
		ids["uses-vim"]:          {OutcomeDrop, BucketReportOnly, RiskLow},
	}
	for id, w := range want {
		var d *Decision
		for i := range rep.Decisions {
			if len(rep.Decisions[i].Targets) > 0 && rep.Decisions[i].Targets[0].ID == id {
				d = &rep.Decisions[i]
			}
		}
		if d == nil || d.Outcome != w.outcome || d.Bucket != w.bucket || d.Risk != w.risk {
			t.Fatalf("decision on %s = %+v, want %s/%q/%s", id, d, w.outcome, w.bucket, w.risk)
		}
		if d.Reason.Code != ReasonPlanner || d.Reason.Text == "" {
			t.Fatalf("decision on %s has reason %+v, want the model's text", id, d.Reason)
		}
	}
	if d := decisionFor(rep, ids["dark-theme"]); d.Status != DecisionApplied || len(d.Evidence) != 1 {
		t.Fatalf("dark-theme merge = %+v, want applied with its evidence", d)
	}
	if d := decisionFor(rep, ids["home-city"]); d.Status != DecisionPending {
		t.Fatalf("the reviewed entry's delete = %+v, want pending for a person", d)
	}

	// Tokens: 1 topic call and one plan call per cluster, per phase and in the row.
	plans := len(m.requests(llm.PurposeOrganizerPlan))
	if plans != len(rep.Clusters) {
		t.Fatalf("%d plan calls for %d clusters", plans, len(rep.Clusters))
	}
	per := callUsage.InputTokens + callUsage.OutputTokens
	if rep.TokenUsage[PhaseCluster].Total() != per || rep.TokenUsage[PhasePlan].Total() != per*plans ||
		det.TokenUsageTotal != per*(plans+1) {
		t.Fatalf("usage %+v total %d, want %d per call over %d calls", rep.TokenUsage, det.TokenUsageTotal, per, plans+1)
	}

	// What the model was shown: the compression target, its own tool only, the data wrapper.
	for _, req := range m.requests(llm.PurposeOrganizerPlan) {
		p := req.Messages[0].Content
		if !strings.Contains(p, "Compression target (limit − 100): 50 memories") || !strings.Contains(p, "of 150 memories used") {
			t.Fatalf("plan prompt lacks the compression target:\n%s", p)
		}
		if !strings.Contains(p, "Global inventory (every memory of every scope, 14 of 14 shown") {
			t.Fatalf("plan prompt lacks the global inventory:\n%s", p)
		}
		if len(req.Tools) != 1 || req.Tools[0].Name != prompts.OrganizerPlanTool || req.Purpose != llm.PurposeOrganizerPlan {
			t.Fatalf("plan request tools %+v", req.Tools)
		}
	}
}

// TestLLMClusteringFallsBack: a topic answer that cannot be used sends the scope to
// structural groups, says why, and the model still plans every cluster.
func TestLLMClusteringFallsBack(t *testing.T) {
	cases := []struct {
		name  string
		reply func() (llm.Response, error)
		code  string
	}{
		{"malformed arguments", func() (llm.Response, error) { return callReply(prompts.OrganizerTopicsTool, `{"topic_clusters": [`) }, CodeLLMBadArguments},
		{"unknown field", func() (llm.Response, error) {
			return callReply(prompts.OrganizerTopicsTool, `{"topic_clusters": [], "accept": ["x"]}`)
		}, CodeLLMBadArguments},
		{"never calls the tool", func() (llm.Response, error) { return textReply("Here are the clusters: editor, deploys.") }, CodeLLMNoToolCall},
		{"another tool", func() (llm.Response, error) { return callReply("MemoryManager", `{"action":"delete"}`) }, CodeLLMNoToolCall},
		{"llm error", func() (llm.Response, error) { return llm.Response{}, errBroken }, CodeLLMFailed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var ids map[string]string
			m := corpusModel(t, &ids, tc.reply, nil)
			e := newLLMEnv(t, 0, provide(m))
			ids = corpus(e)
			det := e.run(TriggerManual)
			rep := det.Report
			if det.Status != StatusDone || len(rep.Clustering) != 1 {
				t.Fatalf("status %s clustering %+v", det.Status, rep.Clustering)
			}
			sc := rep.Clustering[0]
			if sc.Clusterer != "structural" || sc.Fallback == nil || sc.Fallback.Code != tc.code || rep.ClusterFallback == nil {
				t.Fatalf("clustering = %+v (fallback %+v), want structural after %s", sc, sc.Fallback, tc.code)
			}
			for _, c := range rep.Clusters {
				if c.Planner != "llm" || c.Status != ClusterOK || c.Topic != "" {
					t.Fatalf("cluster %+v, want a structural group planned by the model", c)
				}
			}
			topicCalls := m.requests(llm.PurposeOrganizerTopics)
			if tc.code == CodeLLMNoToolCall {
				if len(topicCalls) != 2 {
					t.Fatalf("%d topic calls, want the first and one retry", len(topicCalls))
				}
				if first := topicCalls[0]; first.ToolChoice.Mode != llm.ToolChoiceAuto || len(first.Tools) != 1 ||
					first.Tools[0].Name != prompts.OrganizerTopicsTool || strings.Contains(first.Messages[0].Content, prompts.OrganizerTopicsRetry) {
					t.Fatalf("first call = %+v with %d tools, want only %s offered", first.ToolChoice, len(first.Tools), prompts.OrganizerTopicsTool)
				}
				retry := topicCalls[1]
				if retry.ToolChoice != (llm.ToolChoice{Mode: llm.ToolChoiceTool, Name: prompts.OrganizerTopicsTool}) ||
					len(retry.Tools) != 1 || retry.Tools[0].Name != prompts.OrganizerTopicsTool ||
					!strings.Contains(retry.Messages[0].Content, prompts.OrganizerTopicsRetry) {
					t.Fatalf("retry = %+v, want only %s, forced, with the reminder", retry.ToolChoice, prompts.OrganizerTopicsTool)
				}
			} else if len(topicCalls) != 1 {
				t.Fatalf("%d topic calls, want 1", len(topicCalls))
			}
			// The failed calls' tokens still count.
			if rep.TokenUsage[PhaseCluster].Total() != len(topicCalls)*110 && tc.code != CodeLLMFailed {
				t.Fatalf("cluster usage %+v after %d calls", rep.TokenUsage[PhaseCluster], len(topicCalls))
			}
		})
	}
}
