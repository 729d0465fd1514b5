package api

import "engram/backend/organizer"

// The organizer's params and results, re-exported for transports that call organizer.* by
// name (`engram organize`), which import api and nothing below it.
type (
	OrganizerStatus        = organizer.StatusResult
	OrganizerSettings      = organizer.Settings
	OrganizerSettingsPatch = organizer.SettingsPatch
	OrganizerMode          = organizer.Mode
	OrganizerTrigger       = organizer.Trigger
	OrganizerRunStatus     = organizer.Status
	OrganizerRunsParams    = organizer.RunsParams
	OrganizerRunsResult    = organizer.RunsResult
	OrganizerRunSummary    = organizer.RunSummary
	OrganizerRunParams     = organizer.RunParams
	OrganizerRunDetail     = organizer.RunDetail
	OrganizerRunNowParams  = organizer.RunNowParams
	OrganizerRunRef        = organizer.RunRef
	OrganizerAbortParams   = organizer.AbortParams
	OrganizerApplyParams   = organizer.ApplyParams
	OrganizerApplyResult   = organizer.ApplyResult
	OrganizerApplyOutcome  = organizer.DecisionOutcome
	OrganizerDecision      = organizer.Decision
	OrganizerEntryRef      = organizer.EntryRef
	OrganizerRunError      = organizer.RunError
	OrganizerReport        = organizer.Report
	OrganizerClusterReport = organizer.ClusterReport
	OrganizerUndoParams    = organizer.UndoParams
	OrganizerUndoResult    = organizer.UndoResult
	OrganizerUndoItem      = organizer.UndoItem
)

// Where an organizer run or decision stands, and what a run may be asked for.
const (
	OrganizerQueued  = organizer.StatusQueued
	OrganizerRunning = organizer.StatusRunning
	OrganizerDone    = organizer.StatusDone
	OrganizerFailed  = organizer.StatusFailed
	OrganizerAborted = organizer.StatusAborted

	OrganizerTriggerManual    = organizer.TriggerManual
	OrganizerTriggerScheduled = organizer.TriggerScheduled

	OrganizerDecisionPending = organizer.DecisionPending
	OrganizerDecisionApplied = organizer.DecisionApplied
	OrganizerDecisionFailed  = organizer.DecisionFailed
	OrganizerDecisionDropped = organizer.DecisionDropped
	// Cluster statuses: the model's plan refused and planned offline, or not planned at all.
	OrganizerClusterFallback = organizer.ClusterFallback
	OrganizerClusterFailed   = organizer.ClusterFailed
	OrganizerActionMerge     = organizer.ActionMergeInto

	// OrganizerNothingToAbort is the code of an abort that found no active or queued run.
	OrganizerNothingToAbort = organizer.CodeNothingToAbort
	// OrganizerLLMStopped is the code of a group a run did not ask its model about, after the
	// model failed for good earlier in the run.
	OrganizerLLMStopped = organizer.CodeLLMStopped
	// Where a change of an undo stands.
	OrganizerUndoReady    = organizer.UndoReady
	OrganizerUndoDone     = organizer.UndoDone
	OrganizerUndoConflict = organizer.UndoConflict
	OrganizerUndoFailed   = organizer.UndoFailed
)
