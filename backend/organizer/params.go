package organizer

import "engram/backend/memory"

// Params of the api methods that name a run or a trigger. The other methods take
// RunsParams, ApplyParams or SettingsPatch, or nothing.

// RunParams name one run (organizer.run).
type RunParams struct {
	ID string `json:"id"`
}

// RunNowParams ask for a run (organizer.runNow); an empty trigger means manual.
type RunNowParams struct {
	Trigger Trigger `json:"trigger,omitempty"`
	// Scope limits the run to one scope instance — the quota banner's button organizes the
	// scope that is filling up: "global", "project" with workdir (or its key), "agent" with
	// agent. Empty organizes every scope.
	Scope   memory.Scope `json:"scope,omitempty"`
	Workdir string       `json:"workdir,omitempty"`
	Agent   string       `json:"agent,omitempty"`
	Key     string       `json:"key,omitempty"`
}

// AbortParams name the run to abort (organizer.abort); empty means the active one.
type AbortParams struct {
	RunID string `json:"run_id,omitempty"`
}
