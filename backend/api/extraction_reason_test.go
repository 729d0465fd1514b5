package api

import (
	"strings"
	"testing"

	"engram/backend/extraction"
	"engram/backend/memory"
)

// A failed run says what failed in words ("the model could not be reached" said it of every
// failure, a refused key included), and a run the offline extractor planned says why.
func TestRunReasonNamesTheModelsFailure(t *testing.T) {
	a := apiAt(t, t.TempDir(), memory.ActorUser)
	failed := extraction.RunDetail{RunSummary: extraction.RunSummary{Status: extraction.StatusFailed, Reason: extraction.FailPlanner},
		Report: extraction.Report{ErrorCode: "llm_auth_failed", ErrorArgs: map[string]any{"Status": 401}}}
	got := a.translateRun(failed).ReasonText
	if !strings.HasPrefix(got, "The model failed.") || !strings.Contains(got, "401") {
		t.Fatalf("reason %q", got)
	}
	offline := extraction.RunDetail{RunSummary: extraction.RunSummary{Status: extraction.StatusDone},
		Report: extraction.Report{PlannedOffline: true, ErrorCode: "llm_rate_limited", ErrorArgs: map[string]any{"Status": 429}}}
	if got := a.translateRun(offline).ReasonText; !strings.Contains(got, "offline extractor") || !strings.Contains(got, "429") {
		t.Fatalf("offline reason %q", got)
	}
}
