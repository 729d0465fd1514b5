package extraction

import (
	"os"
	"testing"

	"engram/backend/i18n"
)

// TestEveryCodeIsTranslated: each status, reason and code a run records reads in both
// languages (extraction.status.*, extraction.reason.*, extraction.code.*), as does each
// reasoning a split change or the offline planner records (extraction.split_reason.*,
// extraction.item_reason.*), and each coded error has its
// error.<code>.
func TestEveryCodeIsTranslated(t *testing.T) {
	cat, err := i18n.Load(os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, s := range []string{StatusQueued, StatusRunning, StatusDone, StatusPartial, StatusNoop, StatusSkipped, StatusFailed} {
		keys = append(keys, "extraction.status."+s)
	}
	for _, r := range []string{SkipDisabled, SkipAgentOff, SkipEmpty, SkipTooShort, SkipGreeting, SkipThanks, SkipThrottled,
		SkipAlreadyCovered, SkipSuperseded, SkipDisposed, SkipNoPersonMessage, NoopRejectedByYou, NoopPlan, NoopNoToolCall, NoopMalformed, NoopAllRejected, NoopNoPlanner,
		NoopNothingLeft, FailTimeout, FailCanceled, FailPlanner, FailContext, FailApply, FailInterrupted, "unknown"} {
		keys = append(keys, "extraction.reason."+r)
	}
	for _, c := range []string{CodeInvalidAction, CodeMissingSlug, CodeInvalidScope, CodeProjectNoEvidence, CodeDuplicateSlugInPlan,
		CodeAlreadyWritten, CodeRejectedNoOverride, CodeBodyTooLarge, CodeEmptyDailyBody, CodeMissingDescription,
		CodeMissingBodyForWrite, CodeQuotaExhausted, CodePersonOnlyAction, CodeTooManyItems, CodeQuoteNotInTurn, WarnInvalidRelation,
		WarnAlreadyApplied, WarnNewerTurnKept, WarnAppliedAsUpdate, WarnReviewedProposal, WarnReviewedKept, CodeQuoteSecret} {
		keys = append(keys, "extraction.code."+c)
	}
	for _, k := range []string{splitApart, splitCut, splitConflict} {
		keys = append(keys, "extraction.split_reason."+k)
	}
	keys = append(keys, reasonOfflineRule, reasonProfile, reasonReviewedProposal)
	for _, c := range []string{CodeNotRunning, CodeRunNotFound, CodeInvalidRequest, CodeInvalidSettings, CodeModelNoPlan, CodeModelBadPlan} {
		keys = append(keys, "error."+c)
	}
	for _, lang := range i18n.Languages {
		msgs := cat.Messages(lang)
		for _, k := range keys {
			if msgs[k] == "" {
				t.Errorf("%s: no %s", lang, k)
			}
		}
	}
}
