package organizer

import "testing"

func TestComputeRisk(t *testing.T) {
	cases := []struct {
		name string
		in   RiskInput
		want Risk
	}{
		{"plain merge", RiskInput{Action: ActionMergeInto, Confidence: 0.95}, RiskLow},
		{"cross scope", RiskInput{Action: ActionMergeInto, Confidence: 0.95, CrossScope: true}, RiskHigh},
		{"low confidence", RiskInput{Action: ActionMarkReview, Confidence: 0.69}, RiskHigh},
		{"at the line", RiskInput{Action: ActionMarkReview, Confidence: 0.7}, RiskLow},
		{"touches reviewed keeper", RiskInput{Action: ActionMergeInto, Confidence: 0.95, TouchesReviewed: true}, RiskMedium},
		{"mark reviewed for review (withdraws a person's word)", RiskInput{Action: ActionMarkReview, Confidence: 0.95, TouchesReviewed: true}, RiskHigh},
		{"mark unreviewed for review", RiskInput{Action: ActionMarkReview, Confidence: 0.95}, RiskLow},
		{"merges a reviewed entry away", RiskInput{Action: ActionMergeInto, Confidence: 0.95, TouchesReviewed: true, RemovesReviewed: true}, RiskHigh},
		{"deletes a reviewed entry", RiskInput{Action: ActionDelete, Confidence: 0.99, TouchesReviewed: true, RemovesReviewed: true}, RiskHigh},
		{"deletes an unreviewed entry", RiskInput{Action: ActionDelete, Confidence: 0.99}, RiskLow},
		{"merges unreviewed text into a reviewed keeper (takes its mark off)", RiskInput{Action: ActionMergeInto, Confidence: 0.95, TouchesReviewed: true, Unreviews: true}, RiskHigh},
		{"low confidence and reviewed stays high", RiskInput{Action: ActionMarkReview, Confidence: 0.5, TouchesReviewed: true}, RiskHigh},
	}
	for _, tc := range cases {
		if got := ComputeRisk(tc.in); got != tc.want {
			t.Errorf("%s: risk = %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestGateMatrix walks trigger × mode × risk × confidence.
func TestGateMatrix(t *testing.T) {
	type row struct {
		trigger Trigger
		mode    Mode
		action  Action
		risk    Risk
		conf    float64
		outcome Outcome
		bucket  string
	}
	S, M := TriggerScheduled, TriggerManual
	cases := []row{
		// Manual runs never apply anything themselves.
		{M, ModeStandard, ActionMergeInto, RiskLow, 0.99, OutcomeQueue, BucketManualReview},
		{M, ModeAggressive, ActionMergeInto, RiskLow, 0.99, OutcomeQueue, BucketManualReview},
		{M, ModeConservative, ActionDelete, RiskLow, 0.99, OutcomeQueue, BucketManualReview},
		// High risk is never automatic.
		{S, ModeStandard, ActionMergeInto, RiskHigh, 0.99, OutcomeQueue, BucketHighRisk},
		{S, ModeAggressive, ActionMergeInto, RiskHigh, 0.99, OutcomeQueue, BucketHighRisk},
		{S, ModeConservative, ActionMergeInto, RiskHigh, 0.99, OutcomeQueue, BucketHighRisk},
		// Standard: low risk at ≥ 0.8.
		{S, ModeStandard, ActionMergeInto, RiskLow, 0.8, OutcomeAuto, ""},
		{S, ModeStandard, ActionMergeInto, RiskLow, 0.79, OutcomeQueue, BucketBelowConfidence},
		{S, ModeStandard, ActionMergeInto, RiskMedium, 0.99, OutcomeQueue, BucketMediumRisk},
		{S, ModeStandard, ActionDelete, RiskLow, 0.85, OutcomeAuto, ""},
		{S, ModeStandard, ActionMarkReview, RiskLow, 0.75, OutcomeQueue, BucketBelowConfidence},
		// Conservative: low risk at ≥ 0.9, never a delete.
		{S, ModeConservative, ActionMergeInto, RiskLow, 0.9, OutcomeAuto, ""},
		{S, ModeConservative, ActionMergeInto, RiskLow, 0.85, OutcomeQueue, BucketBelowConfidence},
		{S, ModeConservative, ActionMergeInto, RiskMedium, 0.99, OutcomeQueue, BucketMediumRisk},
		{S, ModeConservative, ActionDelete, RiskLow, 0.99, OutcomeQueue, BucketConservativeMode},
		// Aggressive: low risk at ≥ 0.8, medium at ≥ 0.9.
		{S, ModeAggressive, ActionMergeInto, RiskLow, 0.8, OutcomeAuto, ""},
		{S, ModeAggressive, ActionMergeInto, RiskMedium, 0.9, OutcomeAuto, ""},
		{S, ModeAggressive, ActionMergeInto, RiskMedium, 0.89, OutcomeQueue, BucketBelowConfidence},
		{S, ModeAggressive, ActionDelete, RiskLow, 0.8, OutcomeAuto, ""},
		// Rewrite hints are advice, whatever the trigger.
		{S, ModeAggressive, ActionRewriteHint, RiskLow, 0.99, OutcomeDrop, BucketReportOnly},
		{M, ModeStandard, ActionRewriteHint, RiskLow, 0.99, OutcomeDrop, BucketReportOnly},
	}
	for _, c := range cases {
		out, bucket := Gate(c.trigger, c.mode, c.action, c.risk, c.conf)
		if out != c.outcome || bucket != c.bucket {
			t.Errorf("Gate(%s, %s, %s, %s, %.2f) = %s/%q, want %s/%q", c.trigger, c.mode, c.action, c.risk, c.conf,
				out, bucket, c.outcome, c.bucket)
		}
	}
}

func TestSettingsValidation(t *testing.T) {
	bad := []SettingsPatch{
		{Mode: func() *Mode { m := Mode("reckless"); return &m }()},
		{FrequencyHours: func() *int { n := 0; return &n }()},
		{MinHoursBetweenRuns: func() *int { n := -1; return &n }()},
		{ReviewAfterDays: func() *int { n := 0; return &n }()},
		{MinNewMemories: func() *int { n := 100001; return &n }()},
	}
	for i, p := range bad {
		if _, err := DefaultSettings().Apply(p); CodeOf(err) != CodeInvalidSetting {
			t.Errorf("patch %d: error %v, want code %s", i, err, CodeInvalidSetting)
		}
	}
	m := ModeAggressive
	st, err := DefaultSettings().Apply(SettingsPatch{Mode: &m})
	if err != nil || st.Mode != ModeAggressive {
		t.Fatalf("Apply: %+v %v", st, err)
	}
}
